/**
 * npm run bench:assistant
 *
 * A teacher's whole loop (scripts/assistant-loop.ts) through the v2 MCP client in the 2026-07-28
 * era, connected with the default tool list plus `grading`, against a fresh instance on a fresh
 * SQLite database: lesson to a published quiz; 30 submissions (not counted); grading and
 * approval; the key fix, re-marking and the rewording; who is below 50 %, the CSV link, next
 * year's copy and close. Prints the connection's cost, then per step the calls, the bytes of
 * arguments sent and the bytes of text returned to the model. tests/mcp/assistant-loop.test.ts
 * holds its budgets.
 */
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { freePort, startFlags, startProcess, stopProcess } from './bench-processes';
import { loopReport, playLoop } from './assistant-loop';
import { openDatabase } from '../src/db/database';
import { createApiKey } from '../src/domain/api-keys';
import { createUser } from '../src/domain/users';

const ROOT = path.resolve(__dirname, '..', '..');
const MAIN = path.join(ROOT, 'dist', 'src', 'main.js');

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-assistant-'));
  const databaseUrl = `file:${path.join(dir, 'bench.db')}`;
  const database = await openDatabase(databaseUrl, { migrate: true });
  const user = await createUser(database.repos, {
    email: `bench-${Date.now()}@example.com`,
    password: 'benchmark-password',
  });
  const { key } = await createApiKey(database.repos, user.id, 'bench');
  await database.close();
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const service = await startProcess(
    [...startFlags(ROOT), MAIN],
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      BASE_URL: baseUrl,
      DATABASE_URL: databaseUrl,
      SESSION_SECRET: 'bench-assistant-session-secret-0123456789abcdef',
      SUBMISSIONS_PER_MINUTE: '100000',
      RATE_LIMIT_MAX: '100000',
      LOG_LEVEL: 'warn',
    },
    port,
  );
  try {
    const client = new Client(
      { name: 'bench-assistant', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${baseUrl}/api/mcp?toolsets=grading`), {
        requestInit: { headers: { Authorization: `Bearer ${key}` } },
      }),
    );
    try {
      console.log(loopReport(await playLoop(client, { baseUrl })));
    } finally {
      await client.close();
    }
  } finally {
    await stopProcess(service);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}

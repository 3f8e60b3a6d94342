// What a person sees in the terminal: the start-up banner with the URLs to open, and a busy
// port explained, both from the built service as `npm start` runs it.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, testConfig } from '../../src/config';
import { startupBanner, wantsColour } from '../../src/startup-banner';
import { freePort, spawnService, stopService, waitForLine } from '../helpers/service-process';
import { eventually } from '../helpers/eventually';

function collect(stream: NodeJS.ReadableStream): () => string {
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return () => text;
}

describe('starting the service', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quiz-startup-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('ends its start-up with the URLs to open and the database, plain text when not a terminal', async () => {
    const port = await freePort();
    const child = spawnService(
      { PORT: String(port), DATABASE_URL: `file:${dir}/quiz.db`, LOG_LEVEL: 'info' },
      dir,
    );
    const stderr = collect(child.stderr!);
    try {
      await waitForLine(child, /quiz service listening/);
      await eventually(() => stderr().includes('Ctrl+C'), { timeoutMs: 2_000 });
      const banner = stderr();
      const base = `http://localhost:${port}`;
      expect(banner).toContain('Quiz service is running.');
      expect(banner).toMatch(new RegExp(`Home +${base}/\\n`));
      expect(banner).toMatch(new RegExp(`Dashboard +${base}/dashboard\\n`));
      expect(banner).toMatch(new RegExp(`MCP endpoint +${base}/api/mcp\\n`));
      expect(banner).toMatch(new RegExp(`API docs +${base}/en/docs/api-reference\\n`));
      expect(banner).toContain(`Database      SQLite, file:${dir}/quiz.db`);
      expect(banner).not.toContain('\u001b['); // no colour codes in a pipe
    } finally {
      await stopService(child);
    }
  });

  test('a busy port says which port and how to choose another', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const child = spawnService({ PORT: String(port), DATABASE_URL: `file:${dir}/quiz.db` }, dir);
      const stderr = collect(child.stderr!);
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code).toBe(1);
      expect(stderr()).toBe(
        `Port ${port} on 127.0.0.1 is already in use (another quiz service, or another program). ` +
          `Stop it, or start on another port: PORT=${port + 1} npm start (BASE_URL follows PORT unless you set it).\n`,
      );
    } finally {
      blocker.close();
    }
  });

  test('colour only on a terminal, and never with NO_COLOR', () => {
    expect(wantsColour({ isTTY: true }, loadConfig({}))).toBe(true);
    expect(wantsColour({ isTTY: true }, loadConfig({ NO_COLOR: '1' }))).toBe(false);
    expect(wantsColour({ isTTY: true }, loadConfig({ NO_COLOR: '' }))).toBe(true);
    expect(wantsColour({ isTTY: false }, loadConfig({}))).toBe(false);
    expect(wantsColour({}, loadConfig({}))).toBe(false);
    const config = testConfig({ baseUrl: 'http://localhost:3000' });
    expect(startupBanner(config, { colour: true })).toContain('\u001b[1mQuiz service is running.');
    expect(startupBanner(config, { colour: false })).not.toContain('\u001b[');
  });
});

// The official MCP conformance suite against a test instance, for the 2026-07-28 revision's
// requirements. The suite sends no credential, so it talks to a loopback proxy that adds one;
// the instance accepts the proxy's address as its Host and Origin. The scenarios this service
// fails are listed, each with its reason, in tools/conformance/expected-failures.yml: the suite
// fails the run on any other failure, and on a listed scenario that passes.
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startBearerProxy, type BearerProxy } from '../helpers/bearer-proxy';
import { EXPECTED_FAILURES, runConformance } from '../helpers/conformance';
import { createTestUser, raisedLimits, startTestApp, type TestApp } from '../helpers/test-app';

const RUN_TIMEOUT_MS = 240_000;

/** Each failed check the suite wrote under results/, one line each, to read a failing run. */
function failedChecks(dir: string): string {
  const results = path.join(dir, 'results');
  if (!fs.existsSync(results)) return '';
  return fs
    .readdirSync(results)
    .flatMap((run) => {
      const file = path.join(results, run, 'checks.json');
      if (!fs.existsSync(file)) return [];
      const checks = JSON.parse(fs.readFileSync(file, 'utf8')) as Array<Record<string, unknown>>;
      return checks
        .filter((check) => check.status !== 'SUCCESS' && check.status !== 'INFO')
        .map(
          (check) =>
            `${run}: ${check.id} [${String(check.status)}]: ${String(check.errorMessage ?? check.description ?? '')}`,
        );
    })
    .join('\n');
}

describe('the official conformance suite', () => {
  let app: TestApp;
  let proxy: BearerProxy;
  let scratch: string;

  beforeAll(async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'conformance-'));
    proxy = await startBearerProxy();
    app = await startTestApp({
      config: {
        ...raisedLimits(),
        allowedHosts: [proxy.host],
        allowedOrigins: [proxy.url],
        enforceHost: true,
      },
    });
    const { apiKey } = await createTestUser(app, 'conformance');
    proxy.forward((app.server.address() as AddressInfo).port, apiKey);
  });
  afterAll(async () => {
    await proxy?.close();
    await app?.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  test(
    'every 2026-07-28 requirement passes but the listed fixture scenarios',
    async () => {
      const run = await runConformance(
        [
          'server',
          '--url',
          `${proxy.url}/api/mcp`,
          '--requirements',
          '2026-07-28',
          '--expected-failures',
          EXPECTED_FAILURES,
          '--output-dir',
          path.join(scratch, 'results'),
        ],
        { cwd: scratch, timeoutMs: RUN_TIMEOUT_MS },
      );
      if (run.code !== 0) process.stderr.write(`${run.stdout}\n${run.stderr}\n${failedChecks(scratch)}`);
      else console.log(run.stdout.split('\n').slice(-25).join('\n'));
      expect(run.code).toBe(0);
    },
    RUN_TIMEOUT_MS + 30_000,
  );
});

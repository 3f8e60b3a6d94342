// The official MCP conformance suite against a test instance: the requirements of the 2026-07-28
// revision and of 2025-11-25 (the 2025 era, at its initialize handshake), and the skills
// extension's scenarios. The suite sends no credential, so it talks to a loopback proxy that adds
// one; the instance accepts the proxy's address as its Host and Origin. The checks this service
// fails are listed, each with its reason, in tools/conformance/expected-failures*.yml: the suite
// fails the run on any other failure, and on a listed check that passes.
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startBearerProxy, type BearerProxy } from '../helpers/bearer-proxy';
import {
  EXPECTED_FAILURES,
  EXPECTED_FAILURES_2025,
  SKILLS_SCENARIOS,
  runConformance,
} from '../helpers/conformance';
import { createTestUser, raisedLimits, startTestApp, type TestApp } from '../helpers/test-app';
import { describeWithTool } from '../helpers/tool-folders';

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

describeWithTool('conformance', 'the official conformance suite', () => {
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

  /**
   * Runs the suite against the proxy with these arguments; prints the failures of a failed run,
   * and nothing for a passing one (the assertions below hold its figures).
   */
  async function run(label: string, args: string[]): Promise<number | null> {
    const output = path.join(scratch, label, 'results');
    fs.mkdirSync(output, { recursive: true });
    const result = await runConformance(
      ['server', '--url', `${proxy.url}/api/mcp`, ...args, '--output-dir', output],
      { cwd: path.join(scratch, label), timeoutMs: RUN_TIMEOUT_MS },
    );
    if (result.code !== 0)
      process.stderr.write(`${result.stdout}\n${result.stderr}\n${failedChecks(path.join(scratch, label))}`);
    return result.code;
  }

  test.each([
    ['2026-07-28', EXPECTED_FAILURES],
    ['2025-11-25', EXPECTED_FAILURES_2025],
  ])(
    'every %s requirement passes but the listed checks, each with its reason',
    async (revision, baseline) => {
      expect(await run(revision, ['--requirements', revision, '--expected-failures', baseline])).toBe(0);
    },
    RUN_TIMEOUT_MS + 30_000,
  );

  // The skills extension's scenarios (SEP-2640) are not part of a revision's requirements: each
  // runs on its own, and every check must pass (no baseline).
  test.each(SKILLS_SCENARIOS)(
    'the skills extension scenario %s passes',
    async (scenario) => {
      expect(await run(scenario, ['--scenario', scenario])).toBe(0);
    },
    RUN_TIMEOUT_MS + 30_000,
  );
});

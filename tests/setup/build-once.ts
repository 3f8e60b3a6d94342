// Jest globalSetup: build dist/ once per run, before any worker starts, for the suites that
// test the real commands in child processes (the CLI, the server's shutdown). Incremental,
// so it costs little when nothing changed. Type errors are reported by `npm run typecheck`
// (CI runs it first); tsc still emits, so they only warn here. It installs nothing: the tool
// folders come from `npm run tools:install` (tests/helpers/tool-folders.ts), and this says
// which suites go without them.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { INSTALL_HINT, missingToolFolders } from '../helpers/tool-folders';

/**
 * The whole suite runs in a time zone with an offset (unless TZ names another): a date read or
 * written as local time instead of UTC is off by hours there, and tests/db/read-contract.test.ts
 * checks that the zone is in effect. Workers start after this and inherit it.
 */
export const TEST_TIME_ZONE = 'America/Sao_Paulo';

export default function buildOnce(): void {
  process.env.TZ ||= TEST_TIME_ZONE;
  const root = path.resolve(__dirname, '..', '..');
  const missing = missingToolFolders();
  if (missing.length > 0 && process.env.REQUIRE_TOOLS !== '1') {
    process.stderr.write(
      `\nbuild-once: not installed: ${missing.map((folder) => `tools/${folder}`).join(', ')}; ` +
        `the suites that need them are skipped (run ${INSTALL_HINT} to include them)\n`,
    );
  }
  try {
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'pipe', encoding: 'utf8' });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    const output = `${stdout ?? ''}${stderr ?? ''}`.trim();
    if (!fs.existsSync(path.join(root, 'dist', 'src', 'main.js'))) {
      throw new Error(`npm run build produced no dist/src/main.js:\n${output}`);
    }
    process.stderr.write(
      `\nbuild-once: tsc reported errors (the build was still emitted):\n${output.split('\n').slice(0, 8).join('\n')}\n`,
    );
  }
}

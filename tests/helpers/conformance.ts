// The official MCP conformance suite, run as its README runs it. It needs Node 22 while the
// service runs on Node 20, so it lives in tools/conformance with its own lock and the Node 22
// of the `node` package, as the Inspector does (tool-folders.ts: installed by `npm run
// tools:install`).
import { execFile } from 'node:child_process';
import path from 'node:path';
import { toolDir } from './tool-folders';

export const CONFORMANCE_DIR = toolDir('conformance');
const NODE = path.join(CONFORMANCE_DIR, 'node_modules', 'node', 'bin', 'node');
const CLI = path.join(
  CONFORMANCE_DIR,
  'node_modules',
  '@modelcontextprotocol',
  'conformance',
  'dist',
  'index.js',
);
/** The scenarios this service is known to fail, each with its reason, for `--requirements 2026-07-28`. */
export const EXPECTED_FAILURES = path.join(CONFORMANCE_DIR, 'expected-failures.yml');
/** The same for `--requirements 2025-11-25` (the 2025 era, at its initialize handshake). */
export const EXPECTED_FAILURES_2025 = path.join(CONFORMANCE_DIR, 'expected-failures-2025-11-25.yml');
/** The suite's scenarios for the skills extension (SEP-2640), outside any revision's requirements. */
export const SKILLS_SCENARIOS = [
  'sep-2640-skills-enumeration',
  'sep-2640-skills-manifest',
  'sep-2640-skills-directory',
] as const;

/**
 * Runs the suite's CLI with these arguments, in a scratch directory for its results/ folder;
 * resolves with its exit code and output. Killed after `timeoutMs`.
 */
export function runConformance(
  args: string[],
  options: { cwd: string; timeoutMs: number },
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      NODE,
      [CLI, ...args],
      {
        cwd: options.cwd,
        timeout: options.timeoutMs,
        maxBuffer: 16 * 1024 * 1024,
        env: { ...process.env, NO_COLOR: '1' },
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

// The MCP Inspector CLI, run as a person would run it against the service. It needs Node 22.19
// or later while the service runs on Node 20, so it lives in tools/inspector with its own lock
// and the Node 22 of the `node` package (tool-folders.ts: installed by `npm run tools:install`).
import { execFile, execFileSync } from 'node:child_process';
import path from 'node:path';
import { toolDir } from './tool-folders';

export const INSPECTOR_DIR = toolDir('inspector');
export const INSPECTOR_NODE = path.join(INSPECTOR_DIR, 'node_modules', 'node', 'bin', 'node');
const LAUNCHER = path.join(
  INSPECTOR_DIR,
  'node_modules',
  '@modelcontextprotocol',
  'inspector',
  'clients',
  'launcher',
  'build',
  'index.js',
);

/** The version of the Node that runs the Inspector, e.g. [22, 23, 3]. */
export function inspectorNodeVersion(): number[] {
  return execFileSync(INSPECTOR_NODE, ['--version'], { encoding: 'utf8' })
    .trim()
    .replace(/^v/, '')
    .split('.')
    .map(Number);
}

/** Runs the Inspector's CLI with these arguments; resolves with its exit code and output. */
export function runInspector(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      INSPECTOR_NODE,
      [LAUNCHER, '--cli', ...args],
      { cwd: INSPECTOR_DIR, timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

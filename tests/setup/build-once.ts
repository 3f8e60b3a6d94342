// Jest globalSetup: build dist/ once per run, before any worker starts, for the suites that
// test the real commands in child processes (the CLI, the server's shutdown). Incremental,
// so it costs little when nothing changed.
import { execFileSync } from 'node:child_process';
import path from 'node:path';

export default function buildOnce(): void {
  try {
    execFileSync('npm', ['run', '--silent', 'build'], {
      cwd: path.resolve(__dirname, '..', '..'),
      stdio: 'pipe',
      encoding: 'utf8',
    });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`npm run build failed before the tests:\n${stdout ?? ''}${stderr ?? ''}`);
  }
}

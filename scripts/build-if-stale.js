// Runs `npm run build` only when a source file is newer than the last build, so commands that
// run the built code (the operator CLI) start at once when nothing changed. Plain JavaScript:
// it runs before anything is compiled.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const stamp = path.join(root, 'dist', '.tsbuildinfo');

function newest(entry) {
  const stat = fs.statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return /\.(ts|json|prisma)$/.test(entry) ? stat.mtimeMs : 0;
  let latest = stat.mtimeMs; // a deleted file shows as a change of its folder
  for (const name of fs.readdirSync(entry)) latest = Math.max(latest, newest(path.join(entry, name)));
  return latest;
}

const built = fs.statSync(stamp, { throwIfNoEntry: false })?.mtimeMs ?? 0;
const inputs = ['src', 'scripts', 'tsconfig.json', 'tsconfig.build.json', 'package.json'].map((name) =>
  newest(path.join(root, name)),
);
if (Math.max(...inputs) > built) {
  const result = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  // tsc leaves its build info alone when a file changed only in time: mark the build as current.
  const now = new Date();
  fs.utimesSync(stamp, now, now);
}

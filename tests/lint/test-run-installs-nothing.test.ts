// `npm test` installs nothing: the tool folders (tools/inspector, tools/conformance,
// tools/clients) are installed by `npm run tools:install`, which CI runs after its own `npm ci`,
// and the suites that need them are skipped visibly without them (tests/helpers/tool-folders.ts).
// No file the test run loads may start npm ci, npm install or an install script.
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
// The files jest.config.js has Jest load before any test: its globalSetup and setupFiles.
const CONFIG = fs.readFileSync(path.join(ROOT, 'jest.config.js'), 'utf8');
const setUpFiles = [...CONFIG.matchAll(/'<rootDir>\/(tests\/setup\/[^']+)'/g)].map((match) =>
  path.join(ROOT, match[1]!),
);

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : filesUnder(file);
    return /\.(ts|js|mjs|cjs)$/.test(entry.name) ? [file] : [];
  });
}

// npm (or the tools' script) run with an install command, by any of child_process's functions.
const INSTALLS = [
  /['"`]npm['"`]\s*,\s*\[\s*['"`](ci|install|i|add)['"`]/,
  /\b(exec|execSync|spawn|spawnSync|execFile|execFileSync)\(\s*['"`]npm\s+(ci|install|i|add)\b/,
  /['"`](run|run-script)['"`]\s*,\s*['"`]tools:install['"`]/,
];

describe('the test run installs nothing', () => {
  const files = [
    ...setUpFiles,
    ...filesUnder(path.join(ROOT, 'tests')).filter((file) => file !== __filename),
  ];

  test('the set-up files exist (so the search below reads them)', () => {
    expect(setUpFiles.map((file) => path.basename(file))).toEqual(expect.arrayContaining(['build-once.ts']));
    for (const file of files) expect(fs.existsSync(file)).toBe(true);
  });

  test('no file of the test run starts npm ci or npm install', () => {
    const offenders = files.filter((file) => {
      const source = fs.readFileSync(file, 'utf8');
      return INSTALLS.some((pattern) => pattern.test(source));
    });
    expect(offenders.map((file) => path.relative(ROOT, file))).toEqual([]);
  });

  test('the tool folders are installed by a script of their own, which CI runs before the tests', () => {
    const scripts = (
      JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      }
    ).scripts;
    expect(scripts['tools:install']).toMatch(/npm ci/);
    expect(scripts.test).not.toMatch(/tools:install|npm ci/);
    const ci = fs.readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8');
    expect(ci.indexOf('tools:install')).toBeGreaterThan(ci.indexOf('npm ci'));
    expect(ci.indexOf('tools:install')).toBeLessThan(ci.indexOf('npm test --'));
    expect(ci).toMatch(/REQUIRE_TOOLS=1/);
  });
});

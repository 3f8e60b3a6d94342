// The environment has one reader, src/config.ts, and one document, .env.example: every key the
// one reads, the other shows (set, or commented out when it has no default), and no other file
// of src/ reads process.env. scripts/ is left out on purpose: its knobs (a benchmark's duration,
// a test server's URL, the PATH handed to a child) are tools' settings, not the service's.
import fs from 'node:fs';
import path from 'node:path';
import { ENV_KEYS } from '../../src/config';

const ROOT = path.resolve(__dirname, '..', '..');

/** Source files under a folder, recursively, skipping Prisma's generated client. */
function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(full);
    return /\.(ts|js)$/.test(entry.name) ? [full] : [];
  });
}

describe('environment keys', () => {
  test('every key config.ts reads is in .env.example, as a setting or a commented-out line', () => {
    const example = fs.readFileSync(path.join(ROOT, '.env.example'), 'utf8');
    const documented = new Set(
      [...example.matchAll(/^(?:# )?([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]),
    );
    expect(ENV_KEYS.length).toBeGreaterThan(20);
    expect(ENV_KEYS.filter((key) => !documented.has(key))).toEqual([]);
  });

  test('.env.example names no key that config.ts does not read', () => {
    const example = fs.readFileSync(path.join(ROOT, '.env.example'), 'utf8');
    const named = [...example.matchAll(/^(?:# )?([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]);
    expect(named.filter((key) => !(ENV_KEYS as string[]).includes(key!))).toEqual([]);
  });

  test('no file of src/ but config.ts reads process.env', () => {
    const readers = sourceFiles(path.join(ROOT, 'src'))
      .filter((file) =>
        /process\s*\.\s*env\b|process\s*\[\s*['"]env['"]\s*\]/.test(fs.readFileSync(file, 'utf8')),
      )
      .map((file) => path.relative(ROOT, file).split(path.sep).join('/'));
    expect(readers).toEqual(['src/config.ts']);
  });
});

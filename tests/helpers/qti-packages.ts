// Our QTI fixture folders (tests/fixtures/import/) zipped as content packages, paths relative to
// the folder, for the tests that import them.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { writeZip } from '../../src/domain/import/zip';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'import');

export async function zipFixtureFolder(name: string): Promise<Buffer> {
  const root = path.join(FIXTURES, name);
  const files: Array<{ path: string; bytes: Buffer }> = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir).sort()) {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) walk(full);
      else
        files.push({ path: path.relative(root, full).split(path.sep).join('/'), bytes: readFileSync(full) });
    }
  };
  walk(root);
  return writeZip(files);
}

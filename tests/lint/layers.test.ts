// The layer rules of .dependency-cruiser.cjs (run by `npm run lint`) pass on the code as it is,
// and fail on a deliberately wrong import and on a cycle, each planted in a copy of src/.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const DEPCRUISE = path.join(ROOT, 'node_modules', '.bin', 'depcruise');

function cruise(cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      DEPCRUISE,
      ['src', '--config', '.dependency-cruiser.cjs', '--output-type', 'err'],
      { cwd, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, output: `${stdout}${stderr}` });
      },
    );
  });
}

/** A copy of src/ (without the generated clients) with the lint configuration beside it. */
function copyOfTheTree(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quiz-layers-'));
  fs.cpSync(path.join(ROOT, 'src'), path.join(dir, 'src'), {
    recursive: true,
    filter: (source) => !source.includes(`${path.sep}generated`),
  });
  for (const file of ['.dependency-cruiser.cjs', 'tsconfig.json']) {
    fs.copyFileSync(path.join(ROOT, file), path.join(dir, file));
  }
  return dir;
}

/** The lint's verdict on a copy of src/ with these files (path under src/ -> content) added. */
async function cruiseWith(files: Record<string, string>): Promise<{ code: number; output: string }> {
  const dir = copyOfTheTree();
  try {
    for (const [file, content] of Object.entries(files))
      fs.writeFileSync(path.join(dir, 'src', file), content);
    return await cruise(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('layer rules', () => {
  test('the code as it is breaks no rule', async () => {
    const { code, output } = await cruise(ROOT);
    expect(output).toMatch(/no dependency violations found/);
    expect(code).toBe(0);
  });

  test('the database layer importing the MCP layer fails the lint', async () => {
    const { code, output } = await cruiseWith({
      'db/planted.ts': "import { READ_ONLY } from '../mcp/tool';\nexport const planted = READ_ONLY;\n",
    });
    expect(code).not.toBe(0);
    expect(output).toMatch(/db-is-the-bottom: src\/db\/planted\.ts → src\/mcp\/tool\.ts/);
  });

  test('the domain or a surface reaching past the repositories fails the lint', async () => {
    const { code, output } = await cruiseWith({
      'domain/planted.ts': "import type { Db } from '../db/database';\nexport type Planted = Db;\n",
      'dashboard/planted.ts':
        "import type { HotQueries } from '../db/hot-queries';\nexport type Planted = HotQueries;\n",
    });
    expect(code).not.toBe(0);
    expect(output).toMatch(/domain-asks-repositories: src\/domain\/planted\.ts → src\/db\/database\.ts/);
    expect(output).toMatch(/callers-ask-the-domain: src\/dashboard\/planted\.ts → src\/db\/hot-queries\.ts/);
  });

  test('two modules importing each other fail the lint', async () => {
    const { code, output } = await cruiseWith({
      'domain/planted-a.ts': "import { b } from './planted-b';\nexport const a = () => b;\n",
      'domain/planted-b.ts': "import { a } from './planted-a';\nexport const b = () => a;\n",
    });
    expect(code).not.toBe(0);
    expect(output).toMatch(/no-cycles: src\/domain\/planted-a\.ts/);
  });
});

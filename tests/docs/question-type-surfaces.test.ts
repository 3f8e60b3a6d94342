// A question type added to the union and nowhere else must fail the typecheck in every surface
// that has to handle it, and docs/architecture.md ("How to add a question type") must name
// exactly those files. The compiler runs in memory with one more name in
// src/domain/question-types/names.ts; nothing on disk changes.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { QUESTION_TYPES } from '../../src/domain/question-types/names';

const ROOT = path.resolve(__dirname, '../..');
const NAMES_FILE = path.join(ROOT, 'src/domain/question-types/names.ts');
const ADDED = 'added_for_the_test';
const TYPES_DIR = path.join(ROOT, 'src/domain/question-types');

/** The faces a type's folder holds (`form.ts`, `fields.ts`...), by file name. */
const facesOf = (type: string) =>
  fs
    .readdirSync(path.join(TYPES_DIR, type.replace(/_/g, '-')))
    .filter((file) => file.endsWith('.ts'))
    .sort();

/** The files of a project that fail to compile once the union holds one more name. */
function filesFailingWithAnAddedType(tsconfig: string, only: (file: string) => boolean): string[] {
  const configPath = path.join(ROOT, tsconfig);
  const { config } = ts.readConfigFile(configPath, (file) => ts.sys.readFile(file));
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, path.dirname(configPath));
  const host = ts.createCompilerHost(parsed.options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, language, onError, create) => {
    if (path.resolve(fileName) !== NAMES_FILE) return read(fileName, language, onError, create);
    const text = fs.readFileSync(NAMES_FILE, 'utf8').replace('] as const;', `  '${ADDED}',\n] as const;`);
    return ts.createSourceFile(fileName, text, language);
  };
  const program = ts.createProgram(parsed.fileNames.filter(only), { ...parsed.options, noEmit: true }, host);
  const failing = ts
    .getPreEmitDiagnostics(program)
    .flatMap((diagnostic) => (diagnostic.file ? [path.relative(ROOT, diagnostic.file.fileName)] : []));
  return [...new Set(failing)].sort();
}

/** The files the architecture's "How to add a question type" names, in backticks. */
function filesTheDocsName(): string[] {
  const architecture = fs.readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
  const section = /## How to add a question type\n([\s\S]*?)\n## /.exec(architecture)?.[1] ?? '';
  // The list of the files where the typecheck fails: from its introduction to the blank line after it.
  const list = /the typecheck\s+now\s+fails[\s\S]*?\n\n/.exec(section)?.[0] ?? '';
  return [...new Set([...list.matchAll(/`((?:src|tests)\/[^`]+\.ts)`/g)].map((match) => match[1]!))].sort();
}

describe('adding a question type', () => {
  // The whole program type-checks twice: slow, and worth it.
  jest.setTimeout(600_000);

  test('a name added to the union alone fails the typecheck in each surface, and the docs name each one', () => {
    // The surfaces load each type's faces from its folder: the tables outside src/ that check
    // each face's own type are where a face left unwritten fails.
    const server = filesFailingWithAnAddedType(
      'tsconfig.json',
      (file) =>
        file.includes(`${path.sep}src${path.sep}`) ||
        file.includes(`${path.sep}tests${path.sep}types${path.sep}`),
    );
    const view = filesFailingWithAnAddedType('src/mcp/apps/view/tsconfig.json', () => true);
    const appTests = filesFailingWithAnAddedType('tests/apps/tsconfig.json', () => true);
    const failing = [...new Set([...server, ...view, ...appTests])].sort();
    // Without the name the tree compiles, so each of these fails because of it.
    expect(failing).toEqual(
      expect.arrayContaining([
        'src/domain/question-types/index.ts',
        'tests/types/faces-own-type.ts',
        'tests/apps/view-faces-fit.ts',
      ]),
    );
    const named = filesTheDocsName();
    expect(named.filter((file) => !failing.includes(file))).toEqual([]);
    expect(failing.filter((file) => !named.includes(file))).toEqual([]);
  });
});

describe('a question type is one folder', () => {
  test('every type holds its rules and its schemas, and the same faces as every other type', () => {
    const faces = QUESTION_TYPES.map((type) => ({ type, faces: facesOf(type) }));
    for (const { faces: held } of faces)
      expect(held).toEqual(expect.arrayContaining(['index.ts', 'fields.ts']));
    // A face one type has and another lacks is a surface that would have to name a type. A file
    // beyond the faces every type has (calculated's formula.ts) is the type's own: no surface may
    // import it, so it is no face.
    const common = faces
      .map((entry) => entry.faces)
      .reduce((kept, held) => kept.filter((file) => held.includes(file)));
    expect(faces.filter((entry) => entry.faces.join() !== common.join()).map((entry) => entry.type)).toEqual(
      faces.filter((entry) => entry.faces.length > common.length).map((entry) => entry.type),
    );
    const own = faces.flatMap(({ type, faces: held }) =>
      held
        .filter((file) => !common.includes(file))
        .map((file) => `question-types/${type.replace(/_/g, '-')}/${file.replace(/\.ts$/, '')}'`),
    );
    const importers = (dir: string): string[] =>
      fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        const at = path.join(dir, entry.name);
        if (entry.isDirectory()) return importers(at);
        if (!entry.name.endsWith('.ts')) return [];
        const source = fs.readFileSync(at, 'utf8');
        return own
          .filter((module) => source.includes(module))
          .map((module) => `${path.relative(ROOT, at)}: ${module}`);
      });
    expect(importers(path.join(ROOT, 'src'))).toEqual([]);
    // Every type has the faces the docs name, whatever more one holds.
    expect(common.length).toBeGreaterThanOrEqual(6);
  });

  test('the docs name the files a type holds', () => {
    const architecture = fs.readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
    const section = /## How to add a question type\n([\s\S]*?)\n## /.exec(architecture)?.[1] ?? '';
    for (const face of facesOf(QUESTION_TYPES[0])) expect(section).toContain(`- \`${face}\`:`);
  });
});

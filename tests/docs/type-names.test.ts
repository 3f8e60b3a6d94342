// A question type lives in its own folder (src/domain/question-types/<kebab-name>/): outside it,
// a type's name appears only in the union (names.ts) and the rules' registry (index.ts), so no
// more than MAX_FILES files of src/ name it (the message catalogues aside, which hold its words
// for respondents), in any of its spellings: `multiple_select`, the folder's `multiple-select/`
// and identifiers made from it (`multipleSelectEditor`, `MultipleSelectQuestion`). Everything
// else that describes the types (the tools' schemas, /openapi.json, the API reference, the skill,
// each surface's faces) reads the registry or loads each type's faces from its folder.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { QUESTION_TYPE_DEFINITIONS } from '../../src/domain/question-types';

const ROOT = path.resolve(__dirname, '../..');
const MAX_FILES = 2;

/** A type's own folder, the respondent catalogues and Prisma's generated code are not counted. */
const notCounted = (name: string) => [
  `src/domain/question-types/${name.replace(/_/g, '-')}/`,
  'src/respondent/messages/',
  'src/generated/',
];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(relative);
    return entry.name.endsWith('.ts') ? [relative] : [];
  });
}

const TYPE_NAMES = QUESTION_TYPE_DEFINITIONS.map((definition) => definition.name);

/** A name that is also an ordinary word of the code (`number`: a JSON Schema and typeof type). */
const isPlainWord = (name: string) => /^[a-z]+$/.test(name);

const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * The identifiers made from a name: `multipleSelect…` or `…MultipleSelect…` as a whole word of
 * the camel case. A plain word (`numberOf`, `formatNumber`) counts only with the words a type's
 * own modules are named by (`numberEditor`, `NumberQuestion`).
 */
function camelSpelling(name: string): RegExp {
  const words = name.split('_');
  const camel = words[0]! + words.slice(1).map(capital).join('');
  const pascal = words.map(capital).join('');
  if (isPlainWord(name)) {
    return new RegExp(
      `^(${camel}|${pascal})(Editor|Results|Form|View|Fields|Question|Record|Type|Definition)$`,
    );
  }
  return new RegExp(`(^${camel}|${pascal})(?![a-z])`);
}

/** Whether a string is the path of an import, an export's source or a require. */
function isModulePath(node: ts.Node): boolean {
  const parent = node.parent;
  if ((ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent)) && parent.moduleSpecifier === node) {
    return true;
  }
  if (ts.isExternalModuleReference(parent)) return true;
  return (
    ts.isCallExpression(parent) &&
    (parent.expression.kind === ts.SyntaxKind.ImportKeyword || parent.expression.getText() === 'require')
  );
}

function isTypeTest(node: ts.Node): boolean {
  const parent = node.parent;
  if (ts.isCaseClause(parent)) return /\btype$/.test(parent.parent.parent.expression.getText());
  if (ts.isCallExpression(parent) && /\.literal$/.test(parent.expression.getText())) return true;
  if (ts.isBinaryExpression(parent)) {
    const other = parent.left === node ? parent.right : parent.left;
    return /\btype$/.test(other.getText());
  }
  return false;
}

/** A key of an object literal that has another type's name as a key too: a table keyed by type. */
function isTableKey(node: ts.Node, name: string): boolean {
  const property = node.parent;
  if (!ts.isPropertyAssignment(property) || property.name !== node) return false;
  return property.parent.properties.some(
    (other) =>
      other.name !== undefined &&
      other.name.getText() !== name &&
      TYPE_NAMES.includes(other.name.getText() as never),
  );
}

/**
 * Whether a file's code (its comments aside) names the type: in a string, a template or an
 * identifier, snake, kebab or camel. A plain-word name counts only where it stands for the type:
 * a `case`, a comparison with a `type`, a `z.literal`, a key of a table keyed by type, a folder
 * of an import's path, or an identifier named like a type's module.
 */
function names(code: string, name: string): boolean {
  const source = ts.createSourceFile('code.ts', code, ts.ScriptTarget.Latest, true);
  const kebab = name.replace(/_/g, '-');
  const word = new RegExp(`\\b(${name}|${kebab})\\b`);
  const folder = new RegExp(`(^|/)${kebab}(/|$)`);
  const camel = camelSpelling(name);
  let found = false;
  const visit = (node: ts.Node): void => {
    if (found) return;
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) {
      const text = node.text;
      found = isPlainWord(name)
        ? (text === name && isTypeTest(node)) || (isModulePath(node) && folder.test(text))
        : word.test(text);
    } else if (ts.isIdentifier(node)) {
      found = (node.text === name && (!isPlainWord(name) || isTableKey(node, name))) || camel.test(node.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const SOURCES = sourceFiles('src');

describe.each(TYPE_NAMES)('%s', (name) => {
  test(`is named in at most ${MAX_FILES} files of src/ outside its folder`, () => {
    const counted = SOURCES.filter((file) => !notCounted(name).some((prefix) => file.startsWith(prefix)));
    const files = counted.filter((file) => names(fs.readFileSync(path.join(ROOT, file), 'utf8'), name));
    // The list in the failure says where the name spread to.
    expect({ count: files.length <= MAX_FILES ? 'at most' : 'too many', files }).toEqual({
      count: 'at most',
      files,
    });
  });
});

test('the rule sees a name where it stands for the type, and only there', () => {
  const check = names;
  expect(check(`const a = { multiple_select: 1 };`, 'multiple_select')).toBe(true);
  expect(check(`// multiple_select in a comment\nconst a = 1;`, 'multiple_select')).toBe(false);
  expect(check('const d = `ticks: multiple_select`;', 'multiple_select')).toBe(true);
  expect(check(`if (q.type === 'number') {}`, 'number')).toBe(true);
  expect(check(`switch (q.type) { case 'number': break; }`, 'number')).toBe(true);
  expect(check(`const s = z.literal('number');`, 'number')).toBe(true);
  expect(check(`const t = { yes_no: 1, number: 2 };`, 'number')).toBe(true);
  expect(check(`import { face } from '../multiple-select/view';`, 'multiple_select')).toBe(true);
  expect(check(`import { face } from '../domain/question-types/number/editor';`, 'number')).toBe(true);
  expect(check(`export { numberType } from './number';`, 'number')).toBe(true);
  expect(check(`const f = require('../scale/form');`, 'scale')).toBe(true);
  expect(check(`const v = multipleSelectView;`, 'multiple_select')).toBe(true);
  expect(check(`type Q = MultipleSelectQuestion;`, 'multiple_select')).toBe(true);
  expect(check(`const e = isMultipleSelect(q);`, 'multiple_select')).toBe(true);
  expect(check(`const e = numberEditor;`, 'number')).toBe(true);
  expect(check(`type Q = NumberQuestion;`, 'number')).toBe(true);
  expect(check(`const c = 'a multiple-select question';`, 'multiple_select')).toBe(true);
  expect(check(`const m = multipleSelection; const p = MultipleSelector;`, 'multiple_select')).toBe(false);
  expect(
    check(
      `import { numberIn } from '../numbers'; const a = numberOf(x) + formatNumber(y); const s = 'number/editor';`,
      'number',
    ),
  ).toBe(false);
  expect(
    check(
      `if (typeof x === 'number') {} switch (typeof x) { case 'number': } const j = { type: 'number' }; const a = { number: 3 };`,
      'number',
    ),
  ).toBe(false);
});

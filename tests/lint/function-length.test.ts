// No function in src/ is longer than a reader can hold: every function, method, arrow function and
// function expression, nested ones on their own and counted inside their outer one (that is what
// a reader scrolls), at most MAX_LINES lines from its first line to its last, comment-only lines
// left out. The generated clients are not ours.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '..', '..');
const SRC = path.join(ROOT, 'src');
const MAX_LINES = 150;

/**
 * Functions allowed over the limit, as "file name": none now, every function of src/ is held to
 * it. Kept so a split in progress can name one, and it only shrinks (the second test fails on a
 * name that is no longer long).
 */
const EXCEPTIONS: readonly string[] = [];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return full === path.join(SRC, 'generated') ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** What a reader calls the function: its own name, or the name it is assigned to. */
function nameOf(node: ts.FunctionLikeDeclaration, file: ts.SourceFile): string {
  if (node.name) return node.name.getText(file);
  const parent = node.parent;
  if (
    (ts.isVariableDeclaration(parent) ||
      ts.isPropertyAssignment(parent) ||
      ts.isPropertyDeclaration(parent)) &&
    parent.name
  )
    return parent.name.getText(file);
  return '(anonymous)';
}

interface Long {
  where: string;
  name: string;
  lines: number;
}

/** The functions of one file over the limit. */
function longFunctions(fileName: string, text: string): Long[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const lineOf = (position: number) => file.getLineAndCharacterOfPosition(position).line;
  // A line counts when it holds code or nothing at all; a line of comment alone does not.
  const counted = new Set<number>();
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') counted.add(index);
  });
  const mark = (node: ts.Node) => {
    if (node.kind === ts.SyntaxKind.EndOfFileToken) return;
    const children = node.getChildren(file);
    if (children.length === 0) {
      for (let line = lineOf(node.getStart(file)); line <= lineOf(node.getEnd()); line++) counted.add(line);
    } else children.forEach(mark);
  };
  mark(file);

  const found: Long[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = lineOf(node.getStart(file));
      let lines = 0;
      for (let line = first; line <= lineOf(node.getEnd()); line++) if (counted.has(line)) lines++;
      if (lines > MAX_LINES)
        found.push({
          where: `${path.relative(ROOT, fileName)}:${first + 1}`,
          name: nameOf(node as ts.FunctionLikeDeclaration, file),
          lines,
        });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

const key = (long: Long) => `${long.where.replace(/:\d+$/, '')} ${long.name}`;

describe('function length', () => {
  const found = sourceFiles(SRC).flatMap((file) => longFunctions(file, fs.readFileSync(file, 'utf8')));

  it(`has no function over ${MAX_LINES} lines in src/ (outside the exceptions)`, () => {
    const over = found
      .filter((long) => !EXCEPTIONS.includes(key(long)))
      .sort((a, b) => b.lines - a.lines)
      .map((long) => `${long.where} ${long.name} ${long.lines} lines`);
    expect(over).toEqual([]);
  });

  it('lists as exceptions only functions that are still too long', () => {
    const stillLong = new Set(found.map(key));
    expect(EXCEPTIONS.filter((exception) => !stillLong.has(exception))).toEqual([]);
  });

  it('finds a long function, nested or not, and skips comment lines', () => {
    const body = (count: number) =>
      Array.from({ length: count }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const comments = Array.from({ length: 200 }, () => '  // a comment').join('\n');
    const text = [
      `export function outer() {\n  const inner = () => {\n${body(MAX_LINES)}\n  };\n  return inner;\n}`,
      `export const commented = function () {\n${comments}\n${body(10)}\n};`,
      `class C {\n  atTheLimit() {\n${body(MAX_LINES - 2)}\n  }\n  over() {\n${body(MAX_LINES - 1)}\n  }\n}`,
    ].join('\n');
    const names = longFunctions(path.join(SRC, 'planted.ts'), text).map(
      (long) => `${long.name} ${long.lines}`,
    );
    expect(names).toEqual([`outer ${MAX_LINES + 5}`, `inner ${MAX_LINES + 2}`, `over ${MAX_LINES + 1}`]);
  });
});

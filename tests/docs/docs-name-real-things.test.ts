// Every file, folder and code symbol that docs/*.md and docs/decisions/*.md name must exist, so
// the map cannot drift from the territory unseen. What counts as a name (deliberately narrow, so
// the test never fails on prose):
// - a Markdown link to a relative target `(decisions/0003-...md)`, resolved from the page;
// - a backticked path: `src/x/y.ts`, `db/repositories/users.ts`, `decisions/`, `.env.example`.
//   It must end in a file extension or a `/`, hold no spaces, placeholders (`<name>`, `{a,b}`,
//   `*`) or leading `/` (those are URLs); a name without a `/` counts only with a source or
//   document extension (so `database.prisma`, a property, is not a file). It may be relative to
//   the repository, to the page, or to any folder (`owned/resolve-quiz.ts` in the domain's
//   paragraph): some file or folder's path must end with it;
// - a backticked code symbol: camelCase (`createApp`, or the name before `(` in
//   `createRepositories(prisma, ...)`), PascalCase of two words or more (`QuizReads`) or
//   UPPER_SNAKE_CASE (`TOOLSET_VERSION`). Written as "`symbol` (`file`)" or "`symbol` in
//   `file`", it must be declared or used in that file; otherwise it must appear, as a whole word,
//   in some file of src/, scripts/ or tests/, or in package.json (the SDK's names that we use are
//   found where we use them). The few outside names the docs discuss without our code using
//   them are listed in OUTSIDE_NAMES, and each must still be named by the docs.
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const SKIP_DIRS = new Set([
  'node_modules',
  '.git',
  'dist',
  'data',
  'coverage',
  'test-artifacts',
  'generated',
]);

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIP_DIRS.has(entry.name)) return [];
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

const PAGES = [
  ...fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
  ...fs
    .readdirSync(path.join(ROOT, 'docs', 'decisions'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/decisions/${name}`),
];
const REPO_FILES = filesUnder(ROOT);
const REPO_FOLDERS = [...new Set(REPO_FILES.flatMap((file) => ancestors(path.dirname(file))))];

function ancestors(folder: string): string[] {
  return folder.length > ROOT.length ? [folder, ...ancestors(path.dirname(folder))] : [];
}
const CODE_TEXT = [
  ...['src', 'scripts', 'tests'].flatMap((dir) => filesUnder(path.join(ROOT, dir))),
  path.join(ROOT, 'package.json'),
]
  .filter((file) => /\.(ts|js|cjs|mjs|json|css)$/.test(file))
  .map((file) => fs.readFileSync(file, 'utf8'))
  .join('\n');

const PATH =
  /^(\.?[\w@-][\w@.-]*(\/[\w@.-]+)+(\.(ts|js|cjs|mjs|md|json|prisma|sh|css|html|example)|\/)|[\w@-]+\/|\.?[\w@.-]+\.(ts|js|cjs|mjs|md|json|sh|example))$/;
const SYMBOL =
  /^([a-z][a-z0-9]*[A-Z][A-Za-z0-9]*|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*|[A-Z][A-Z0-9]*_[A-Z0-9_]+)(\(.*\))?$/;

/** The files or folders a named path may be, from the page's folder or any folder's end. */
function resolvePath(name: string, page: string): string[] {
  const bare = name.replace(/\/$/, '');
  const fromPage = path.join(ROOT, path.dirname(page), bare);
  if (fs.existsSync(fromPage)) return [fromPage];
  const suffix = `${path.sep}${bare.split('/').join(path.sep)}`;
  return name.endsWith('/')
    ? REPO_FOLDERS.filter((folder) => folder.endsWith(suffix))
    : REPO_FILES.filter((file) => file.endsWith(suffix));
}

/** Names from other code that the docs discuss and ours does not use, with whose they are. */
const OUTSIDE_NAMES: Record<string, string> = {
  overallRate: "autocannon's result field (docs/performance.md explains why it is not used)",
  makeTransferable: "Node's internals, seen in a heap profile (docs/performance.md)",
};

const word = (symbol: string) => new RegExp(`(^|[^\\w$])${symbol}([^\\w$]|$)`);

interface Named {
  page: string;
  line: number;
  name: string;
}

/** The names a page makes, by kind. */
function namesIn(page: string): { links: Named[]; paths: Named[]; symbols: (Named & { file?: string })[] } {
  const text = fs.readFileSync(path.join(ROOT, page), 'utf8');
  const links: Named[] = [];
  const paths: Named[] = [];
  const symbols: (Named & { file?: string })[] = [];
  let inFence = false;
  text.split('\n').forEach((content, index) => {
    const line = index + 1;
    if (content.startsWith('```')) inFence = !inFence;
    if (inFence) return;
    for (const match of content.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1]!.split('#')[0]!;
      if (target && !/^[a-z]+:/.test(target)) links.push({ page, line, name: target });
    }
    for (const match of content.matchAll(/`([^`]+)`(?:\s*(?:\(|in )`([^`]+)`)?/g)) {
      const [, name, attributed] = match as unknown as [string, string, string | undefined];
      if (PATH.test(name)) paths.push({ page, line, name });
      const symbol = SYMBOL.exec(name);
      if (symbol) {
        const file = attributed && PATH.test(attributed) ? attributed : undefined;
        symbols.push({ page, line, name: symbol[1]!, ...(file ? { file } : {}) });
      }
    }
  });
  return { links, paths, symbols };
}

const NAMES = PAGES.map(namesIn);
const where = (named: Named) => `${named.page}:${named.line} ${named.name}`;

describe('the docs name only things that exist', () => {
  test('the pages are found, and name enough to check', () => {
    expect(PAGES).toContain('docs/architecture.md');
    expect(NAMES.flatMap((names) => names.paths).length).toBeGreaterThan(50);
    expect(NAMES.flatMap((names) => names.symbols).length).toBeGreaterThan(20);
  });

  test('every relative link leads to a file or folder', () => {
    const broken = NAMES.flatMap((names) => names.links).filter(
      (link) => !fs.existsSync(path.join(ROOT, path.dirname(link.page), link.name)),
    );
    expect(broken.map(where)).toEqual([]);
  });

  test('every backticked path exists', () => {
    const missing = NAMES.flatMap((names) => names.paths).filter(
      (named) => resolvePath(named.name, named.page).length === 0,
    );
    expect(missing.map(where)).toEqual([]);
  });

  test('every code symbol exists, in the file it is attributed to when it is', () => {
    const missing = NAMES.flatMap((names) => names.symbols).filter((named) => {
      const files = named.file
        ? resolvePath(named.file, named.page).filter((file) => fs.statSync(file).isFile())
        : [];
      if (files.length > 0)
        return !files.some((file) => word(named.name).test(fs.readFileSync(file, 'utf8')));
      return !(named.name in OUTSIDE_NAMES) && !word(named.name).test(CODE_TEXT);
    });
    expect(missing.map((named) => `${where(named)}${named.file ? ` (in ${named.file})` : ''}`)).toEqual([]);
  });

  test('every outside name is still discussed by the docs', () => {
    const named = new Set(NAMES.flatMap((names) => names.symbols).map((symbol) => symbol.name));
    expect(Object.keys(OUTSIDE_NAMES).filter((name) => !named.has(name))).toEqual([]);
  });
});

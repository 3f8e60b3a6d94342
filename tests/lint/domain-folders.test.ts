// The domain's folders import one way only: quizzes, attempts, taking, grading, reporting, owned
// and the rest form a graph without a loop, so each folder can be read with only those below it
// (docs/architecture.md, "The domain's folders"). dependency-cruiser's folder-scoped cycle rule
// cannot be kept to src/domain/ (a folder there counts every file below it, and a type's view
// face takes the in-chat view's types), so this test builds the graph from its JSON output. A
// root file of src/domain/ is a node of its own: it is one file, not a folder.
import { execFile } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const DEPCRUISE = path.join(ROOT, 'node_modules', '.bin', 'depcruise');

interface Cruised {
  modules: { source: string; dependencies: { resolved: string }[] }[];
}

/** The node a module belongs to: its folder directly under src/domain/, or the root file itself. */
function nodeOf(file: string): string | null {
  const match = /^src\/domain\/([^/]+)(\/)?/.exec(file);
  if (!match) return null;
  return match[2] ? `src/domain/${match[1]}/` : file;
}

/** Each node's imports of other nodes, with one file import that makes each edge. */
function folderGraph(cruised: Cruised): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const module of cruised.modules) {
    const from = nodeOf(module.source);
    if (!from) continue;
    for (const dependency of module.dependencies) {
      const to = nodeOf(dependency.resolved);
      if (!to || to === from) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      if (!graph.get(from)!.has(to)) graph.get(from)!.set(to, `${module.source} → ${dependency.resolved}`);
    }
  }
  return graph;
}

/** A loop of the graph as the imports that make it, or null when there is none. */
function loopOf(graph: Map<string, Map<string, string>>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string): string[] | null => {
    state.set(node, 'open');
    path.push(node);
    for (const next of [...(graph.get(node)?.keys() ?? [])].sort()) {
      if (state.get(next) === 'open') {
        const loop = [...path.slice(path.indexOf(next)), next];
        return loop.slice(1).map((to, index) => graph.get(loop[index]!)!.get(to)!);
      }
      if (!state.has(next)) {
        const found = visit(next);
        if (found) return found;
      }
    }
    path.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of [...graph.keys()].sort()) {
    if (state.has(node)) continue;
    const found = visit(node);
    if (found) return found;
  }
  return null;
}

function cruise(): Promise<Cruised> {
  return new Promise((resolve, reject) => {
    execFile(
      DEPCRUISE,
      ['src', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'],
      { cwd: ROOT, timeout: 120_000, maxBuffer: 64 * 1024 * 1024 },
      // depcruise exits non-zero on a rule's violation; the graph is in its output all the same.
      (error, stdout) => (stdout ? resolve(JSON.parse(stdout) as Cruised) : reject(error)),
    );
  });
}

describe("the domain's folders", () => {
  test('import each other without a loop', async () => {
    const graph = folderGraph(await cruise());
    // The walk found the domain: its folders and root files, with their imports.
    expect(graph.size).toBeGreaterThan(10);
    expect(loopOf(graph)).toBeNull();
  }, 150_000);

  test('a loop through files that import no one another is found, with its imports', () => {
    const graph = folderGraph({
      modules: [
        { source: 'src/domain/a/one.ts', dependencies: [{ resolved: 'src/domain/b/two.ts' }] },
        { source: 'src/domain/b/three.ts', dependencies: [{ resolved: 'src/domain/errors.ts' }] },
        { source: 'src/domain/b/four.ts', dependencies: [{ resolved: 'src/domain/a/five.ts' }] },
        { source: 'src/domain/errors.ts', dependencies: [] },
      ],
    });
    expect(loopOf(graph)).toEqual([
      'src/domain/a/one.ts → src/domain/b/two.ts',
      'src/domain/b/four.ts → src/domain/a/five.ts',
    ]);
    expect(loopOf(new Map([['src/domain/b/', new Map([['src/domain/errors.ts', 'x']])]]))).toBeNull();
  });
});

// The layer rules of .dependency-cruiser.cjs (run by `npm run lint`) pass on the code as it is,
// and each rule fails on a deliberately wrong import planted in a copy of src/. Every rule in the
// configuration must have a plant here, so a new rule cannot go untested.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const DEPCRUISE = path.join(ROOT, 'node_modules', '.bin', 'depcruise');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const RULES = (require(path.join(ROOT, '.dependency-cruiser.cjs')) as { forbidden: { name: string }[] })
  .forbidden;

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

/** The lint's verdict on a copy of src/ with these files (path under src/ -> content) written. */
async function cruiseWith(files: Record<string, string>): Promise<{ code: number; output: string }> {
  const dir = copyOfTheTree();
  try {
    for (const [file, content] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, 'src', file)), { recursive: true });
      fs.writeFileSync(path.join(dir, 'src', file), content);
    }
    return await cruise(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// Each wrong import goes to a planted target of its own, so the plants do not depend on which
// real files exist (a rename elsewhere cannot make a plant resolve to nothing and pass).
const TARGET = 'export const target = 1;\n';
const importing = (specifier: string) =>
  `import { target } from '${specifier}';\nexport const planted = target;\n`;
const version = fs.readFileSync(path.join(ROOT, 'src', 'version.ts'), 'utf8');

/** One plant per rule: the files it adds, and the violation the lint must report. */
const PLANTS: { rule: string; files: Record<string, string>; violation: string }[] = [
  {
    rule: 'no-cycles',
    files: {
      'domain/planted-a.ts': "import { b } from './planted-b';\nexport const a = () => b;\n",
      'domain/planted-b.ts': "import { a } from './planted-a';\nexport const b = () => a;\n",
    },
    violation: 'src/domain/planted-a.ts',
  },
  {
    rule: 'db-is-the-bottom',
    files: { 'db/planted.ts': importing('../mcp/planted-target'), 'mcp/planted-target.ts': TARGET },
    violation: 'src/db/planted.ts → src/mcp/planted-target.ts',
  },
  {
    rule: 'raw-sql-below-the-repositories',
    files: {
      'db/planted-raw.ts': importing('./repositories/planted-target'),
      'db/repositories/planted-target.ts': TARGET,
    },
    violation: 'src/db/planted-raw.ts → src/db/repositories/planted-target.ts',
  },
  {
    rule: 'domain-knows-no-caller',
    files: {
      'domain/planted-caller.ts': importing('../identity/planted-target'),
      'identity/planted-target.ts': TARGET,
    },
    violation: 'src/domain/planted-caller.ts → src/identity/planted-target.ts',
  },
  {
    rule: 'dashboard-faces-keep-their-layer',
    files: {
      'domain/question-types/planted-type/editor.ts': importing('../../../dashboard/planted-page'),
      'dashboard/planted-page.ts': TARGET,
    },
    violation: 'src/domain/question-types/planted-type/editor.ts → src/dashboard/planted-page.ts',
  },
  {
    rule: 'only-the-dashboard-shows-its-faces',
    files: {
      'mcp/planted-face-user.ts': importing('../domain/question-types/planted-type/results'),
      'domain/question-types/planted-type/results.ts': TARGET,
    },
    violation: 'src/mcp/planted-face-user.ts → src/domain/question-types/planted-type/results.ts',
  },
  {
    rule: 'form-faces-use-the-face-helpers',
    files: {
      'domain/question-types/planted/form.ts': importing('../../../respondent/planted-target'),
      'respondent/planted-target.ts': TARGET,
    },
    violation: 'src/domain/question-types/planted/form.ts → src/respondent/planted-target.ts',
  },
  {
    rule: 'only-the-form-imports-form-faces',
    files: {
      'mcp/planted-face.ts': importing('../domain/question-types/planted-face/form'),
      'domain/question-types/planted-face/form.ts': TARGET,
    },
    violation: 'src/mcp/planted-face.ts → src/domain/question-types/planted-face/form.ts',
  },
  {
    rule: 'domain-asks-repositories',
    files: { 'domain/planted-storage.ts': importing('../db/planted-target'), 'db/planted-target.ts': TARGET },
    violation: 'src/domain/planted-storage.ts → src/db/planted-target.ts',
  },
  {
    rule: 'prisma-stays-in-db',
    files: {
      'planted-prisma.ts': importing('./generated/planted-target'),
      'generated/planted-target.ts': TARGET,
    },
    violation: 'src/planted-prisma.ts → src/generated/planted-target.ts',
  },
  {
    rule: 'callers-ask-the-domain',
    files: { 'dashboard/planted-storage.ts': importing('../db/planted-target') },
    violation: 'src/dashboard/planted-storage.ts → src/db/planted-target.ts',
  },
  {
    rule: 'identity-below-surfaces',
    files: { 'identity/planted.ts': importing('../web/planted-target'), 'web/planted-target.ts': TARGET },
    violation: 'src/identity/planted.ts → src/web/planted-target.ts',
  },
  {
    rule: 'web-below-surfaces',
    files: {
      'web/planted.ts': importing('../dashboard/planted-target'),
      'dashboard/planted-target.ts': TARGET,
    },
    violation: 'src/web/planted.ts → src/dashboard/planted-target.ts',
  },
  {
    rule: 'http-is-shared-plumbing',
    files: { 'http/planted.ts': importing('../mcp/planted-target') },
    violation: 'src/http/planted.ts → src/mcp/planted-target.ts',
  },
  {
    rule: 'mcp-stands-alone',
    files: { 'mcp/planted.ts': importing('../oauth/planted-target'), 'oauth/planted-target.ts': TARGET },
    violation: 'src/mcp/planted.ts → src/oauth/planted-target.ts',
  },
  {
    rule: 'oauth-stands-alone',
    files: { 'oauth/planted.ts': importing('../dashboard/planted-target') },
    violation: 'src/oauth/planted.ts → src/dashboard/planted-target.ts',
  },
  {
    rule: 'dashboard-stands-alone',
    files: {
      'dashboard/planted.ts': importing('../respondent/planted-target'),
      'respondent/planted-target.ts': TARGET,
    },
    violation: 'src/dashboard/planted.ts → src/respondent/planted-target.ts',
  },
  {
    rule: 'respondent-stands-alone',
    files: { 'respondent/planted.ts': importing('../docs/planted-target'), 'docs/planted-target.ts': TARGET },
    violation: 'src/respondent/planted.ts → src/docs/planted-target.ts',
  },
  {
    rule: 'docs-describes-the-contract',
    files: {
      'docs/planted-mcp.ts': importing('../mcp/planted-target'),
      'docs/planted-oauth.ts': importing('../oauth/planted-target'),
    },
    violation: 'src/docs/planted-mcp.ts → src/mcp/planted-target.ts',
  },
  {
    rule: 'view-runs-in-the-browser',
    files: {
      'mcp/apps/view/planted.ts': importing('../../tools/planted-target'),
      'mcp/tools/planted-target.ts': TARGET,
    },
    violation: 'src/mcp/apps/view/planted.ts → src/mcp/tools/planted-target.ts',
  },
  {
    rule: 'type-schemas-are-zod',
    files: {
      'domain/question-types/planted-schema/fields.ts': importing('../../../http/planted-target'),
      'http/planted-target.ts': TARGET,
    },
    violation: 'src/domain/question-types/planted-schema/fields.ts → src/http/planted-target.ts',
  },
  {
    rule: 'view-faces-run-in-the-browser',
    files: {
      'domain/question-types/planted/view.ts': importing('../../quiz-input-planted'),
      'domain/quiz-input-planted.ts': TARGET,
    },
    violation: 'src/domain/question-types/planted/view.ts → src/domain/quiz-input-planted.ts',
  },
  {
    rule: 'only-the-view-imports-view-faces',
    files: {
      'dashboard/planted-face.ts': importing('../domain/question-types/planted-face/view'),
      'domain/question-types/planted-face/view.ts': TARGET,
    },
    violation: 'src/dashboard/planted-face.ts → src/domain/question-types/planted-face/view.ts',
  },
  {
    rule: 'cli-is-an-operator-tool',
    files: { 'cli/planted.ts': importing('../http/planted-target'), 'http/planted-target.ts': TARGET },
    violation: 'src/cli/planted.ts → src/http/planted-target.ts',
  },
  {
    rule: 'lti-core-is-pure-protocol',
    files: {
      'lti/planted.ts': importing('../domain/planted-lti-target'),
      'domain/planted-lti-target.ts': TARGET,
    },
    violation: 'src/lti/planted.ts → src/domain/planted-lti-target.ts',
  },
  {
    rule: 'leaves-import-no-layer',
    files: {
      'version.ts': `${version}import './domain/planted-target';\n`,
      'domain/planted-target.ts': TARGET,
    },
    violation: 'src/version.ts → src/domain/planted-target.ts',
  },
  {
    rule: 'nothing-imports-the-composition-root',
    files: {
      'http/planted-root.ts':
        "import { startServer } from '../server';\nexport const planted = startServer;\n",
    },
    violation: 'src/http/planted-root.ts → src/server.ts',
  },
];

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('layer rules', () => {
  test('the code as it is breaks no rule', async () => {
    const { code, output } = await cruise(ROOT);
    expect(output).toMatch(/no dependency violations found/);
    expect(code).toBe(0);
  });

  test('every rule has a plant below', () => {
    expect(PLANTS.map((plant) => plant.rule).sort()).toEqual(RULES.map((rule) => rule.name).sort());
  });

  // One copy with every plant at once: each violation is reported on its own line.
  test('each rule fails the lint on its planted import, and allowed imports pass', async () => {
    const { code, output } = await cruiseWith({
      ...Object.assign({}, ...PLANTS.map((plant) => plant.files)),
      // What the rules allow: the docs reading a tool definition, the view taking a type, a face its helpers.
      'docs/planted-allowed.ts': importing('../mcp/tools/planted-target'),
      // A dashboard face taking the dashboard's helpers for faces; any other domain file may not.
      'domain/question-types/planted-allowed/editor.ts': importing('../../../dashboard/question-editor-face'),
      'domain/planted-dashboard-user.ts': importing('../dashboard/question-editor-face'),
      'mcp/apps/view/planted-types.ts':
        "import type { target } from '../../tools/planted-target';\nexport type Planted = typeof target;\n",
      // A view face taking what a view face is, and the view's table importing it.
      'domain/question-types/planted-allowed/view.ts':
        "import type { ViewFace } from '../../../mcp/apps/view/face/view-face';\nexport type Planted = ViewFace<'scale', object, object>;\nexport const planted = 1;\n",
      'mcp/apps/view/planted-table.ts':
        "import { planted } from '../../../domain/question-types/planted-allowed/view';\nexport const table = planted;\n",
    });
    expect(code).not.toBe(0);
    for (const { rule, violation } of PLANTS) {
      expect(output).toMatch(new RegExp(`${rule}: ${escape(violation)}`));
    }
    expect(output).toMatch(
      /docs-describes-the-contract: src\/docs\/planted-oauth\.ts → src\/oauth\/planted-target\.ts/,
    );
    expect(output).toMatch(
      /domain-knows-no-caller: src\/domain\/planted-dashboard-user\.ts → src\/dashboard\/question-editor-face\.ts/,
    );
    expect(output).not.toMatch(/planted-allowed|planted-types|planted-table/);
  });
});

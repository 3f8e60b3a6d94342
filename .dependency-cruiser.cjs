// The layers of src/ and the direction of their imports; `npm run lint` fails on a violation.
// docs/architecture.md draws the same picture. From the bottom up:
//   db (and the generated Prisma clients) < domain < identity < http (shared HTTP plumbing)
//   < web (page helpers) < the surfaces (mcp, oauth, dashboard, respondent, docs)
//   < the composition root (app, main, cli).
// config, logger, version and package-root are leaves that every layer may use. Within the domain,
// its folders import one way only: tests/lint/domain-folders.test.ts holds that (a folder rule here
// would count every file below src/domain/ as the folder's, the view faces' types included).
// Every folder of src/ is the `from` of at least one rule below; src/generated/ (Prisma's output)
// is left out of the walk, and the prisma-stays-in-db rule keeps everything but db/ away from it.
const SURFACES = '^src/(mcp|oauth|dashboard|respondent|docs)/';
// Prisma's generated clients, the database layer and the drivers it wraps.
const STORAGE = '^src/(generated|db)/|node_modules/(@prisma/|pg/|better-sqlite3/)';
const COMPOSITION = '^src/(app|main|server|redis|session-secret|startup-banner)\\.ts$|^src/cli/';
// Each question type's part of the in-chat view, beside its rules: browser code.
const VIEW_FACES = '^src/domain/question-types/[^/]+/view\\.ts$';
// A question type's face on the public form (src/domain/question-types/<type>/form.ts), and the
// one module of the respondent surface made for the faces to import.
const FORM_FACES = '^src/domain/question-types/[^/]+/form\\.ts$';
const FORM_FACE_HELPERS = '^src/respondent/question-form-face\\.ts$';
const LEAVES = '^src/(config|logger|version|package-root)\\.ts$';
// A question type's faces on the dashboard, in its folder (its editor fields, its statistics), and
// the dashboard's modules made for them (the interfaces and the parts they build from).
const DASHBOARD_FACES = '^src/domain/question-types/[^/]+/(editor|results)\\.ts$';
const DASHBOARD_FACE_HELPERS = '^src/dashboard/question-(editor|results)-face\\.ts$';

/** A rule: files matching `from` must not import files matching `to`. */
const forbid = (name, comment, from, to) => ({
  name,
  comment,
  severity: 'error',
  from: { path: from },
  to: { path: to },
});

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'Modules that import each other cannot be understood, tested or loaded one at a time.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    forbid(
      'db-is-the-bottom',
      'The database layer knows no domain rule and no caller.',
      '^src/db/',
      `^src/(domain|identity|web)/|${SURFACES}|${COMPOSITION}`,
    ),
    {
      name: 'raw-sql-below-the-repositories',
      comment:
        'Within db/, the repositories build on the raw reads and writes, the dialect and the row types, never the reverse: only database.ts, which opens the database, assembles them.',
      severity: 'error',
      from: { path: '^src/db/[^/]+\\.ts$', pathNot: '^src/db/database\\.ts$' },
      to: { path: '^src/db/repositories/' },
    },
    {
      name: 'domain-knows-no-caller',
      comment:
        "Domain functions are called by every surface and know none of them; a type's faces on a surface (view.ts, editor.ts, results.ts) sit in its folder but belong to that surface (their rules are below).",
      severity: 'error',
      from: { path: '^src/domain/', pathNot: `${VIEW_FACES}|${DASHBOARD_FACES}|${FORM_FACES}` },
      to: { path: `^src/(identity|web)/|${SURFACES}|${COMPOSITION}` },
    },
    {
      name: 'dashboard-faces-keep-their-layer',
      comment:
        "A type's editor.ts and results.ts build on the domain, the page helpers and the dashboard's modules made for faces, never the pages that ask them.",
      severity: 'error',
      from: { path: DASHBOARD_FACES },
      to: { path: `^src/(identity|http)/|${SURFACES}|${COMPOSITION}`, pathNot: DASHBOARD_FACE_HELPERS },
    },
    {
      name: 'only-the-dashboard-shows-its-faces',
      comment: "A type's editor.ts and results.ts are the dashboard's: only its tables of faces import them.",
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/dashboard/' },
      to: { path: DASHBOARD_FACES },
    },
    {
      name: 'form-faces-use-the-face-helpers',
      comment:
        "A type's face on the public form (its form.ts) is drawn with the domain, the page helpers (web/) and the respondent's helpers for faces, which never import the faces' table, so there is no cycle.",
      severity: 'error',
      from: { path: FORM_FACES },
      to: {
        path: `^src/(identity|http|mcp|oauth|dashboard|respondent|docs|cli)/|${COMPOSITION}`,
        pathNot: FORM_FACE_HELPERS,
      },
    },
    {
      name: 'only-the-form-imports-form-faces',
      comment:
        "The types' faces on the public form are read by the respondent surface alone, through its one table of them (respondent/question-forms.ts).",
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/respondent/question-forms\\.ts$' },
      to: { path: FORM_FACES },
    },
    {
      name: 'domain-asks-repositories',
      comment:
        'The domain reaches storage through the repositories (db/repositories/) only: never Prisma, a driver or a raw query.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: STORAGE, pathNot: '^src/db/repositories/' },
    },
    {
      name: 'prisma-stays-in-db',
      comment:
        "Prisma's generated types stop at the repositories' edge (repositories/quiz-rows.ts and the other rows are written by hand).",
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(db|generated)/' },
      to: { path: '^src/generated/|node_modules/@prisma/' },
    },
    {
      name: 'callers-ask-the-domain',
      comment:
        "Above the domain, storage is passed along (the repositories' types) or diagnosed (db/errors.ts); opening it is the composition root's.",
      severity: 'error',
      from: { path: '^src/(identity|http|web|mcp|oauth|dashboard|respondent|docs)/' },
      to: { path: STORAGE, pathNot: '^src/db/(repositories/index\\.ts|errors\\.ts)$' },
    },
    forbid(
      'identity-below-surfaces',
      'Who is calling is decided below the surfaces that ask it.',
      '^src/identity/',
      `^src/web/|${SURFACES}|${COMPOSITION}`,
    ),
    forbid(
      'web-below-surfaces',
      'Page helpers serve every surface and import none.',
      '^src/web/',
      `${SURFACES}|${COMPOSITION}`,
    ),
    forbid(
      'http-is-shared-plumbing',
      'The HTTP helpers are used by every surface and import none of them.',
      '^src/http/',
      '^src/(mcp|oauth|dashboard|respondent|docs)/',
    ),
    forbid(
      'mcp-stands-alone',
      'The MCP endpoint uses http, identity and the domain, not the other surfaces.',
      '^src/mcp/',
      '^src/(oauth|dashboard|respondent|docs)/',
    ),
    forbid(
      'oauth-stands-alone',
      'The authorization server uses http, web, identity and the domain, not the other surfaces.',
      '^src/oauth/',
      '^src/(mcp|dashboard|respondent|docs)/',
    ),
    forbid(
      'dashboard-stands-alone',
      'The dashboard uses http, web, identity and the domain, not the other surfaces.',
      '^src/dashboard/',
      '^src/(mcp|oauth|respondent|docs)/',
    ),
    forbid(
      'respondent-stands-alone',
      'The respondent pages use http, web and the domain, not the other surfaces.',
      '^src/respondent/',
      '^src/(mcp|oauth|dashboard|docs)/',
    ),
    {
      name: 'docs-describes-the-contract',
      comment:
        'The API reference and OpenAPI read the tool definitions, the schemas as tools/list publishes them and the OAuth endpoint descriptions, never the MCP plumbing, the OAuth handlers, the database or the pages.',
      severity: 'error',
      from: { path: '^src/docs/' },
      to: {
        path: '^src/(mcp|oauth|dashboard|respondent|db|generated)/',
        pathNot:
          '^src/mcp/(tools/|tool\\.ts$|registry\\.ts$|toolsets\\.ts$|portable-json-schema\\.ts$)|^src/oauth/openapi-paths\\.ts$',
      },
    },
    {
      name: 'type-schemas-are-zod',
      comment:
        "A question type's schemas (its fields.ts) are zod over the domain's bounds: every surface merges them, so they import no surface, no storage and no rule beyond the domain.",
      severity: 'error',
      from: { path: '^src/domain/question-types/[^/]+/fields\\.ts$' },
      to: { pathNot: '^src/domain/|node_modules/zod/' },
    },
    {
      name: 'view-runs-in-the-browser',
      comment:
        "The MCP Apps view is bundled for the host's frame: it may take types from the server's code, never its modules.",
      severity: 'error',
      from: { path: '^src/mcp/apps/view/' },
      to: {
        path: '^src/',
        pathNot: `^src/mcp/apps/view/|^src/domain/question-types/(names|face-table)\\.ts$|${VIEW_FACES}`,
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'view-faces-run-in-the-browser',
      comment:
        "A question type's view face (its view.ts) is bundled into the view: it takes the type names and what a view face is (mcp/apps/view/face/view-face.ts, which imports nothing), nothing else.",
      severity: 'error',
      from: { path: VIEW_FACES },
      to: { pathNot: '^src/domain/question-types/names\\.ts$|^src/mcp/apps/view/face/view-face\\.ts$' },
    },
    {
      name: 'only-the-view-imports-view-faces',
      comment:
        "The types' view faces are the in-chat view's, drawn from its one table (mcp/apps/view/faces.ts).",
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/mcp/apps/view/' },
      to: { path: VIEW_FACES },
    },
    forbid(
      'lti-core-is-pure-protocol',
      'The LTI 1.3 core verifies launches from what it is handed (a platform record, its keys, a nonce store) and imports nothing of the service, so whichever surface serves LTI can use it (decision 0029).',
      '^src/lti/',
      '^src/(?!lti/)',
    ),
    forbid(
      'cli-is-an-operator-tool',
      'The operator CLI opens the database and calls the domain; it serves no request.',
      '^src/cli/',
      `^src/(identity|http|web)/|${SURFACES}`,
    ),
    forbid(
      'leaves-import-no-layer',
      'Configuration, logging and versions are used by every layer, so they import none.',
      LEAVES,
      '^src/',
    ),
    forbid(
      'nothing-imports-the-composition-root',
      'Only the entry points assemble the service.',
      '^src/(?!app\\.ts|main\\.ts|cli/)',
      COMPOSITION,
    ),
  ],
  options: {
    // The generated clients stay in the graph (a rule can name them) but are not walked.
    doNotFollow: { path: ['node_modules', '^src/generated/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};

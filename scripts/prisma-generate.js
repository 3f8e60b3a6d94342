#!/usr/bin/env node
// Runs at `npm install` (postinstall) and as `npm run db:generate`; needs no network.
// 1. Derives prisma/schema.postgresql.prisma from prisma/schema.prisma: a generated client serves
//    one provider, so there is one schema file per provider, differing only in provider and output
//    (decision 0002, note 13). tests/db/migrations.test.ts checks the committed copy is in sync.
// 2. Runs `prisma generate` for both. It never runs the schema engine, it only checks that the file
//    named by PRISMA_SCHEMA_ENGINE_BINARY exists, so point it at the stand-in script.
// 3. Makes the generated clients load their query compiler with require (see requireInsteadOfImport).
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');

const root = path.resolve(__dirname, '..');
const SQLITE_SCHEMA = path.join(root, 'prisma', 'schema.prisma');
const POSTGRES_SCHEMA = path.join(root, 'prisma', 'schema.postgresql.prisma');
const HEADER =
  '// GENERATED from schema.prisma by scripts/prisma-generate.js (npm run db:generate): do not edit.\n';

/** Replaces `from` by `to` inside the one top-level block of the given kind; fails loudly otherwise. */
function replaceInBlock(text, kind, from, to) {
  const blocks = text.match(new RegExp(`^${kind}\\s+\\w+\\s*\\{[^}]*\\}`, 'gm')) ?? [];
  const matching = blocks.filter((block) => from.test(block));
  if (matching.length !== 1) {
    throw new Error(
      `prisma/schema.prisma: expected one ${kind} block matching ${from}, found ${matching.length}`,
    );
  }
  return text.replace(matching[0], () => matching[0].replace(from, to));
}

/** The PostgreSQL schema for a given SQLite schema text: only provider and output differ. */
function derivePostgresSchema(sqliteSchema) {
  let text = replaceInBlock(sqliteSchema, 'datasource', /(provider\s*=\s*)"sqlite"/, '$1"postgresql"');
  text = replaceInBlock(
    text,
    'generator',
    /(output\s*=\s*)"\.\.\/src\/generated\/sqlite"/,
    '$1"../src/generated/postgresql"',
  );
  return HEADER + text;
}

/** Writes the derived schema when it differs; returns true when the file changed. */
function writePostgresSchema() {
  const wanted = derivePostgresSchema(fs.readFileSync(SQLITE_SCHEMA, 'utf8'));
  const current = fs.existsSync(POSTGRES_SCHEMA) ? fs.readFileSync(POSTGRES_SCHEMA, 'utf8') : null;
  if (current === wanted) return false;
  fs.writeFileSync(POSTGRES_SCHEMA, wanted);
  return true;
}

function resolvePrismaCli() {
  try {
    return require.resolve('prisma/build/index.js', { paths: [root] });
  } catch {
    return null;
  }
}

function generate(cli, schemaPath) {
  const child = spawn(process.execPath, [cli, 'generate', '--schema', path.relative(root, schemaPath)], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PRISMA_SCHEMA_ENGINE_BINARY:
        process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? path.join(root, 'scripts', 'schema-engine-unavailable.sh'),
      // No network here: skip the update check and telemetry instead of waiting on them.
      CHECKPOINT_DISABLE: '1',
      PRISMA_HIDE_UPDATE_MESSAGE: '1',
    },
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) return resolve();
      process.stderr.write(output);
      reject(new Error(`prisma generate failed for ${path.relative(root, schemaPath)} (exit ${code})`));
    });
  });
}

/**
 * The generated client loads its query compiler with `await import(...)`. ts-jest compiles with
 * `module: node16`, which keeps import() in CommonJS output, and Jest on Node 20 cannot run a
 * dynamic import without --experimental-vm-modules ("A dynamic import callback was invoked
 * without --experimental-vm-modules"). The files it imports are CommonJS (moduleFormat = "cjs"),
 * so `require` loads the same modules, under Jest and plain Node alike.
 */
function requireInsteadOfImport(outputDir) {
  const file = path.join(outputDir, 'internal', 'class.ts');
  const text = fs.readFileSync(file, 'utf8');
  const patched = text.replace(/await import\((['"][^'"]+['"])\)/g, 'require($1)');
  if (patched === text || /\bimport\(/.test(patched)) {
    throw new Error(
      `${path.relative(root, file)}: unexpected dynamic imports; check the pinned Prisma version`,
    );
  }
  fs.writeFileSync(file, patched);
}

async function main() {
  const changed = writePostgresSchema();
  const cli = resolvePrismaCli();
  if (!cli) {
    // A production install (`npm ci --omit=dev`) has no CLI; the build that produced dist/ generated the clients.
    console.warn('prisma-generate: prisma CLI not installed, skipping client generation');
    return;
  }
  const started = Date.now();
  await Promise.all([generate(cli, SQLITE_SCHEMA), generate(cli, POSTGRES_SCHEMA)]);
  requireInsteadOfImport(path.join(root, 'src', 'generated', 'sqlite'));
  requireInsteadOfImport(path.join(root, 'src', 'generated', 'postgresql'));
  console.log(
    `prisma-generate: clients in src/generated/{sqlite,postgresql} (${Date.now() - started} ms)` +
      (changed ? '; rewrote prisma/schema.postgresql.prisma' : ''),
  );
}

module.exports = { derivePostgresSchema, SQLITE_SCHEMA, POSTGRES_SCHEMA };

if (require.main === module) {
  main().catch((err) => {
    console.error(`prisma-generate: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}

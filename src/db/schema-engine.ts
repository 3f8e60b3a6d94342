// Prisma's schema engine (migrate deploy, diff) compiled to WASM, driven through a driver adapter:
// the CLI's native engine cannot be downloaded here. "Note N" below refers to the notes of
// docs/decisions/0002-prisma-offline.md ("Prisma 7 without its downloadable engine").
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
// The package is an ES module; only its types are imported (the code is loaded below).
import type * as Wasm from '@prisma/schema-engine-wasm' with { 'resolution-mode': 'import' };

export type EngineProvider = 'sqlite' | 'postgresql';
export type MigrationList = Wasm.MigrationList;
export interface SchemaFile {
  path: string;
  content: string;
}

export interface SchemaEngine {
  /** `prisma migrate deploy`: applies what is missing; returns the names applied now. */
  applyMigrations(migrations: MigrationList): Promise<string[]>;
  /** SQL script that takes a database built from `migrations` to `schema` ('' when in sync). */
  diffMigrationsToSchema(migrations: MigrationList, schema: SchemaFile): Promise<string>;
  close(): Promise<void>;
}

export interface OpenSchemaEngineOptions {
  provider: EngineProvider;
  /** SQLite: a file path (no `file:`) or ':memory:'. PostgreSQL: a connection URL. */
  target: string;
  schema: SchemaFile;
  /** Receives the engine's JSON log lines (ignored by default). */
  log?: (line: string) => void;
}

const NO_FILTERS: Wasm.SchemaFilter = { externalTables: [], externalEnums: [] };

export async function openSchemaEngine(options: OpenSchemaEngineOptions): Promise<SchemaEngine> {
  const adapters: SqlDriverAdapter[] = [];
  const closers: Array<() => Promise<void>> = [];
  const inner =
    options.provider === 'sqlite'
      ? sqliteEngineAdapter(options.target)
      : postgresEngineAdapter(options.target, closers);
  // The engine never disposes what it connects (decision 0002, note 10): remember every adapter.
  const track = (adapter: SqlDriverAdapter) => (adapters.push(adapter), adapter);
  const tracked: SqlMigrationAwareDriverAdapterFactory = {
    provider: inner.provider,
    adapterName: inner.adapterName,
    connect: async () => track(await inner.connect()),
    connectToShadowDb: async () => track(await inner.connectToShadowDb()),
  };
  const factory = bindMigrationAwareSqlAdapterFactory(tracked);
  const close = async () => {
    for (const adapter of adapters.splice(0).reverse()) await adapter.dispose().catch(() => undefined);
    for (const closer of closers.splice(0)) await closer();
  };

  // Driver errors reach us as "External error id#N" (decision 0002, note 11): put the real one back.
  const call = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (err) {
      throw explainEngineError(err, factory.errorRegistry);
    }
  };

  const glue = await loadWasmGlue();
  const engine = await call(() =>
    glue.SchemaEngine.new(
      { datamodels: [[options.schema.path, options.schema.content]] },
      options.log ?? (() => undefined),
      factory,
    ),
  ).catch(async (err: unknown) => {
    await close();
    throw err;
  });

  return {
    applyMigrations: async (migrationsList) =>
      (await call(() => engine.applyMigrations({ migrationsList, filters: NO_FILTERS })))
        .appliedMigrationNames,
    diffMigrationsToSchema: async (migrations, schema) => {
      const result = await call(() =>
        engine.diff({
          from: { tag: 'migrations', ...migrations },
          to: { tag: 'schemaDatamodel', files: [schema] },
          script: true,
          exitCode: null,
          filters: NO_FILTERS,
        }),
      );
      const script = result.stdout ?? '';
      return /^\s*(-- This is an empty migration\.)?\s*$/.test(script) ? '' : script;
    },
    close: async () => {
      engine.free();
      await close();
    },
  };
}

function explainEngineError(
  err: unknown,
  registry: { consumeError(id: number): { error: unknown } | undefined },
) {
  const message = err instanceof Error ? err.message : String(err);
  const match = /External error id#(\d+)/.exec(message);
  const original = match ? registry.consumeError(Number(match[1]))?.error : undefined;
  if (!(original instanceof Error)) return err instanceof Error ? err : new Error(message);
  // "Failed to connect to the shadow database\nExternal error id#0\n<wasm backtrace>" becomes
  // "Failed to connect to the shadow database: permission denied to create database".
  const headline = message.slice(0, match?.index).trim() || 'Schema engine error';
  return new Error(`${headline}: ${original.message}`, { cause: original });
}

// --- adapters for the engine --------------------------------------------------------------------

function sqliteEngineAdapter(file: string): SqlMigrationAwareDriverAdapterFactory {
  const base = new PrismaBetterSqlite3({ url: file, timeout: 10_000 });
  return {
    provider: base.provider,
    adapterName: base.adapterName,
    connect: () => base.connect(),
    // The shadow replay sends each whole migration through executeRaw, which runs one
    // statement only: route argument-less executeRaw to executeScript (decision 0002, note 5).
    connectToShadowDb: async () => {
      const shadow = await base.connectToShadowDb();
      const executeRaw = shadow.executeRaw.bind(shadow);
      shadow.executeRaw = async (query) =>
        query.args.length === 0 ? (await shadow.executeScript(query.sql), 0) : executeRaw(query);
      return shadow;
    },
  };
}

function postgresEngineAdapter(
  url: string,
  closers: Array<() => Promise<void>>,
): SqlMigrationAwareDriverAdapterFactory {
  // One connection (decision 0002, note 10): the engine takes its advisory lock (pg_advisory_lock, which makes a
  // second instance starting at the same time wait) and releases it in separate queries; with more
  // connections the unlock could run on another session and leave the lock held.
  const main = enginePool(url);
  closers.push(() => main.end());
  return {
    provider: 'postgres',
    adapterName: '@prisma/adapter-pg',
    connect: () => connectWholeScripts(main),
    connectToShadowDb: async () => {
      const database = `prisma_shadow_${randomUUID().replace(/-/g, '')}`;
      await withClient(url, (client) => client.query(`CREATE DATABASE "${database}"`));
      // PrismaPg's own shadow config spreads `connectionString` over `database` and would replay
      // on the main database (decision 0002, note 6): give the shadow pool a URL naming the shadow database.
      const shadowUrl = new URL(url);
      shadowUrl.pathname = `/${database}`;
      const shadow = enginePool(shadowUrl.toString());
      closers.push(async () => {
        // Close our pool before dropping, and force out anything left (decision 0002, note 7).
        await shadow.end().catch(() => undefined);
        await withClient(url, (client) => client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`));
      });
      return connectWholeScripts(shadow);
    },
  };
}

function enginePool(connectionString: string): pg.Pool {
  const pool = new pg.Pool({ connectionString, max: 1 });
  pool.on('error', () => undefined); // an idle connection dropped by the server: the next query reports it
  // adapter-pg 7.10 rejects PostgreSQL's internal "char" type (OID 18), which the engine's catalog
  // queries return: describe those columns as text (OID 25) (decision 0002, note 8).
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  const charAsText = (result: pg.QueryResult | pg.QueryResult[]) => {
    for (const r of Array.isArray(result) ? result : [result]) {
      for (const field of r.fields ?? []) if (field.dataTypeID === 18) field.dataTypeID = 25;
    }
    return result;
  };
  pool.query = ((...args: unknown[]) => {
    const result = query(...args);
    return result instanceof Promise ? result.then(charAsText) : result;
  }) as typeof pool.query;
  return pool;
}

async function connectWholeScripts(pool: pg.Pool): Promise<SqlDriverAdapter> {
  const adapter = await new PrismaPg(pool).connect();
  // adapter-pg's executeScript splits on ';' and breaks literals and $$ bodies (decision 0002, note 9): send the
  // script as one simple-protocol query (no arguments), which PostgreSQL runs statement by statement.
  adapter.executeScript = async (script) => {
    await adapter.executeRaw({ sql: script, args: [], argTypes: [] });
  };
  return adapter;
}

async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

// --- loading the WASM module --------------------------------------------------------------------

type Glue = typeof Wasm & Record<string, unknown>;

// The WebAssembly global's types live in lib.dom, which this Node project does not load.
interface WasmModule {
  readonly _brand: 'WebAssembly.Module';
}
interface WasmRuntime {
  compile(bytes: Uint8Array): Promise<WasmModule>;
  instantiate(module: WasmModule, imports: object): Promise<{ exports: Record<string, unknown> }>;
}
const { WebAssembly: wasmRuntime } = globalThis as unknown as { WebAssembly: WasmRuntime };

let compiled: Promise<{ module: WasmModule; glueSource: { code: string; names: string[] } }> | undefined;

/**
 * A fresh wasm-bindgen instance per engine (its glue keeps module-level state), from a module
 * compiled once per process.
 *
 * The package's entry imports the .wasm file, which Node cannot import (decision 0002, note 1), and its glue is an
 * ES module, which neither CommonJS before Node 20.19 nor Jest's module registry on Node 20 can require.
 * So the glue's source is evaluated here as a function in the caller's realm: the instanceof checks it
 * makes on the adapters' promises and arrays then see the same globals as the adapters.
 */
async function loadWasmGlue(): Promise<Glue> {
  compiled ??= (async () => {
    const dir = path.dirname(require.resolve('@prisma/schema-engine-wasm/schema_engine_bg'));
    const bytes = await fs.promises.readFile(path.join(dir, 'schema_engine_bg.wasm'));
    const source = await fs.promises.readFile(path.join(dir, 'schema_engine_bg.js'), 'utf8');
    return { module: await wasmRuntime.compile(bytes), glueSource: esmToFunctionBody(source) };
  })();
  const { module, glueSource } = await compiled;
  const glue = new Function(glueSource.code)() as Glue;

  // The engine arms a 10 s timer it never clears; unref it so the process can exit (decision 0002, note 10).
  const imports: Record<string, unknown> = { ...glue };
  for (const name of glueSource.names.filter((n) => n.startsWith('__wbg_setTimeout_'))) {
    const setTimeoutImport = glue[name] as (...args: unknown[]) => NodeJS.Timeout;
    imports[name] = (...args: unknown[]) => setTimeoutImport(...args).unref();
  }
  const instance = await wasmRuntime.instantiate(module, { './schema_engine_bg.js': imports });
  (glue.__wbg_set_wasm as (exports: object) => void)(instance.exports);
  (instance.exports.__wbindgen_start as () => void)();
  return glue;
}

/** `export function f` / `export class C` become locals returned as one object; nothing else is expected. */
function esmToFunctionBody(source: string): { code: string; names: string[] } {
  const names: string[] = [];
  const body = source.replace(/^export (function|class) ([\w$]+)/gm, (_match, kind: string, name: string) => {
    names.push(name);
    return `${kind} ${name}`;
  });
  if (/^\s*(export|import)\b/m.test(body) || !names.includes('SchemaEngine')) {
    throw new Error('Unexpected @prisma/schema-engine-wasm glue layout: check the pinned version');
  }
  return { code: `'use strict';\n${body}\nreturn { ${names.join(', ')} };`, names };
}

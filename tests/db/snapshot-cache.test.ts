// On the embedded SQLite default the per-request reads (credential, quiz) are remembered while
// the database is unchanged (src/db/snapshot-cache.ts). Two instances on one file, as two
// worker processes have them: whatever one writes, the other's very next request sees.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import request from 'supertest';
import { sqliteSnapshotCache } from '../../src/db/snapshot-cache';
import { listApiKeys, revokeApiKey } from '../../src/domain/api-keys';
import { connectApp, loggedInAgent, mcp as oauthMcp } from '../oauth/oauth-helpers';
import { postMcp } from '../helpers/http';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';
import { createTestUser, startTwoInstances, type TestApp, type TwoInstances } from '../helpers/test-app';
import { callTool, payload, type AnyClient } from '../helpers/mcp-clients';

describe('two instances on one SQLite file', () => {
  let database: TestDatabase;
  let instances: TwoInstances;
  let one: TestApp;
  let two: TestApp;
  let viaOne: AnyClient;
  let viaTwo: AnyClient;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    instances = await startTwoInstances(database);
    ({ one, two, viaOne, viaTwo } = instances);
  });
  afterAll(async () => {
    await instances.close();
    await database.drop();
  });

  test('each edit through one instance is what the next read through the other returns', async () => {
    const quiz = payload(
      await callTool(viaOne, 'create_quiz', {
        title: 'Edited under a reader',
        questions: [{ type: 'yes_no', text: 'Version 0?', points: 1 }],
      }),
    );
    for (let version = 1; version <= 3; version += 1) {
      // Read twice, so the second read is one the instance could answer from memory.
      await callTool(viaTwo, 'get_quiz_questions', { quiz_id: quiz.quiz_id });
      await callTool(viaTwo, 'get_quiz_questions', { quiz_id: 'Edited under a reader' });
      payload(
        await callTool(viaOne, 'update_quiz', {
          quiz_id: quiz.quiz_id,
          questions: [{ type: 'yes_no', text: `Version ${version}?`, points: version }],
        }),
      );
      for (const ref of [quiz.quiz_id, quiz.slug, 'Edited under a reader']) {
        const read = payload(await callTool(viaTwo, 'get_quiz_questions', { quiz_id: ref }));
        expect(read.questions).toEqual([
          expect.objectContaining({ text: `Version ${version}?`, points: version }),
        ]);
      }
    }
  });

  test('a quiz deleted through one instance is gone for the other at once', async () => {
    const quiz = payload(await callTool(viaOne, 'create_quiz', { title: 'Short-lived', questions: [] }));
    expect(payload(await callTool(viaTwo, 'get_quiz_settings', { quiz_id: quiz.quiz_id })).title).toBe(
      'Short-lived',
    );
    payload(await callTool(viaOne, 'delete_quiz', { quiz_id: quiz.quiz_id, confirm: true }));
    const after = await callTool(viaTwo, 'get_quiz_settings', { quiz_id: quiz.quiz_id });
    expect(after.isError).toBe(true);
  });

  test('an API key revoked through one instance is refused by the other on its next request', async () => {
    const other = await createTestUser(database, 'revoked');
    const list = () =>
      postMcp(two, { credential: other.apiKey, body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    expect((await list()).status).toBe(200);
    expect((await list()).status).toBe(200);
    const [key] = await listApiKeys(database.repos, other.id);
    await revokeApiKey(database.repos, other.id, key!.id);
    expect((await list()).status).toBe(401);
  });

  test('an OAuth token revoked on one instance ends on the other at once', async () => {
    const { agent } = await loggedInAgent(one, 'oauth-sqlite');
    const { client, tokens } = await connectApp(one, agent);
    expect((await oauthMcp(two, tokens.access_token)).status).toBe(200);
    expect((await oauthMcp(two, tokens.access_token)).status).toBe(200);
    await request(one.app)
      .post('/oauth/revoke')
      .type('form')
      .send({ token: tokens.access_token, client_id: client.clientId })
      .expect(200);
    expect((await oauthMcp(two, tokens.access_token)).status).toBe(401);
  });
});

describe('the snapshot cache', () => {
  let dir: string;
  let writer: BetterSqlite3.Database;
  let reader: BetterSqlite3.Database;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quiz-snapshot-'));
    writer = new BetterSqlite3(path.join(dir, 'x.db'));
    writer.pragma('journal_mode = WAL');
    writer.exec('CREATE TABLE t (v TEXT)');
    reader = new BetterSqlite3(path.join(dir, 'x.db'), { readonly: true });
  });
  afterEach(() => {
    reader.close();
    writer.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const value = () => ({ rows: reader.prepare('SELECT v FROM t').pluck().all() as string[] });

  test('answers from memory until any connection writes, then reads again', () => {
    const cache = sqliteSnapshotCache(() => reader);
    const load = jest.fn(value);
    expect(cache.read('k', load)).toEqual({ rows: [] });
    expect(cache.read('k', load)).toEqual({ rows: [] });
    expect(load).toHaveBeenCalledTimes(1);
    writer.prepare('INSERT INTO t VALUES (?)').run('written');
    expect(cache.read('k', load)).toEqual({ rows: ['written'] });
    expect(load).toHaveBeenCalledTimes(2);
  });

  test('keeps no misses, stays within its budget (oldest out first), and hands out frozen values', () => {
    // Each value below weighs 130 (32 per object or number, plus characters): four fit in 600.
    const cache = sqliteSnapshotCache(() => reader, 600);
    const none = jest.fn(() => null);
    cache.read('missing', none);
    cache.read('missing', none);
    expect(none).toHaveBeenCalledTimes(2);

    const loads: string[] = [];
    const load = (key: string) => () => {
      loads.push(key);
      return { key, nested: { list: [1] } };
    };
    for (const key of ['a', 'b', 'c', 'd', 'e', 'b', 'a']) cache.read(key, load(key));
    expect(loads).toEqual(['a', 'b', 'c', 'd', 'e', 'a']);

    // More than a quarter of the budget in one value: handed out, not kept.
    const big = jest.fn(() => ({ text: 'x'.repeat(200) }));
    cache.read('big', big);
    cache.read('big', big);
    expect(big).toHaveBeenCalledTimes(2);

    const kept = cache.read('a', load('a'))!;
    expect(loads).toHaveLength(6);
    expect(() => {
      (kept.nested.list as number[]).push(2);
    }).toThrow(TypeError);
  });
});

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describeDatabaseUrl, openDatabase, type Db, type Provider } from '../../src/db/database';
import { isUniqueViolation } from '../../src/db/errors';
import { applyMigrations, migrationsDir } from '../../src/db/migrate';
import { DatabaseSetupError } from '../../src/db/errors';
import {
  createTestDatabase,
  describeWithPostgres,
  TEST_POSTGRES_URL,
  type TestDatabase,
} from '../helpers/test-database';

const unique = () => randomBytes(4).toString('hex');

/** Run in a child process: takes SQLite's write lock, says so, commits 300 ms later. */
const HOLD_WRITE_LOCK = `
  const db = new (require(process.env.BETTER_SQLITE3))(process.env.DB_FILE, { timeout: 10000 });
  db.prepare('BEGIN IMMEDIATE').run();
  db.prepare('UPDATE users SET keySeq = keySeq + 1').run();
  process.stdout.write('locked');
  setTimeout(() => { db.prepare('COMMIT').run(); db.close(); }, 300);
`;

async function createUser(prisma: Db) {
  return prisma.user.create({ data: { email: `u-${unique()}@example.test`, passwordHash: 'hash' } });
}

/** A user with one of everything that hangs off it. */
async function createUserWithEverything(prisma: Db) {
  const user = await createUser(prisma);
  await prisma.apiKey.create({
    data: { userId: user.id, name: 'k', keyHash: unique(), prefix: 'svc_ab', last4: 'wxyz' },
  });
  await prisma.session.create({
    data: { userId: user.id, tokenHash: unique(), csrfToken: 'c', expiresAt: new Date(Date.now() + 60_000) },
  });
  const quiz = await prisma.quiz.create({
    data: {
      ownerId: user.id,
      title: 'Quiz',
      titleKey: 'quiz',
      slug: `quiz-${unique()}`,
      questions: {
        create: [
          { position: 0, type: 'yes_no', text: 'Yes?', key: { points: 1, correctAnswer: 'yes' } },
          {
            position: 1,
            type: 'multiple_choice',
            text: 'Which?',
            key: {
              options: [
                { id: 'a', label: 'A', score: 1 },
                { id: 'b', label: 'B', score: 0 },
              ],
            },
          },
        ],
      },
    },
    include: { questions: true },
  });
  await prisma.response.create({
    data: {
      quizId: quiz.id,
      quizVersion: 1,
      score: 1,
      maxScore: 2,
      answers: {
        create: quiz.questions.map((q) => ({
          quizId: quiz.id,
          questionId: q.id,
          position: q.position,
          questionText: q.text,
          type: q.type,
          points: 1,
          maxPoints: 1,
        })),
      },
    },
  });
  return { user, quiz };
}

function databaseSuite(provider: Provider): void {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(provider);
  });
  afterAll(() => db?.drop());

  test('create, read, update and delete', async () => {
    const user = await createUser(db.prisma);
    expect(await db.prisma.user.findUnique({ where: { email: user.email } })).toMatchObject({
      id: user.id,
      keySeq: 0,
    });
    const updated = await db.prisma.user.update({
      where: { id: user.id },
      data: { keySeq: { increment: 1 } },
    });
    expect(updated.keySeq).toBe(1);
    expect(updated.createdAt).toBeInstanceOf(Date);
    await db.prisma.user.delete({ where: { id: user.id } });
    expect(await db.prisma.user.findUnique({ where: { id: user.id } })).toBeNull();
  });

  test('an interactive transaction rolls back on error', async () => {
    const email = `tx-${unique()}@example.test`;
    await expect(
      db.prisma.$transaction(async (tx) => {
        await tx.user.create({ data: { email, passwordHash: 'h' } });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await db.prisma.user.findUnique({ where: { email } })).toBeNull();
  });

  test('deleting a user deletes its keys, sessions, quizzes, questions, responses and answers', async () => {
    const { user, quiz } = await createUserWithEverything(db.prisma);
    const other = await createUserWithEverything(db.prisma);
    const count = async (ownerId: string, quizId: string) => ({
      apiKeys: await db.prisma.apiKey.count({ where: { userId: ownerId } }),
      sessions: await db.prisma.session.count({ where: { userId: ownerId } }),
      quizzes: await db.prisma.quiz.count({ where: { ownerId } }),
      questions: await db.prisma.question.count({ where: { quizId } }),
      responses: await db.prisma.response.count({ where: { quizId } }),
      answers: await db.prisma.answer.count({ where: { quizId } }),
    });
    const everything = {
      apiKeys: 1,
      sessions: 1,
      quizzes: 1,
      questions: 2,
      responses: 1,
      answers: 2,
    };
    expect(await count(user.id, quiz.id)).toEqual(everything);

    await db.prisma.user.delete({ where: { id: user.id } });

    expect(await count(user.id, quiz.id)).toEqual({
      apiKeys: 0,
      sessions: 0,
      quizzes: 0,
      questions: 0,
      responses: 0,
      answers: 0,
    });
    expect(await count(other.user.id, other.quiz.id)).toEqual(everything); // and nothing else
  });

  test('isUniqueViolation recognises a duplicate, by column', async () => {
    const user = await createUser(db.prisma);
    const duplicate = await db.prisma.user
      .create({ data: { email: user.email, passwordHash: 'h' } })
      .catch((err: unknown) => err);
    expect(isUniqueViolation(duplicate)).toBe(true);
    expect(isUniqueViolation(duplicate, 'email')).toBe(true);
    expect(isUniqueViolation(duplicate, 'slug')).toBe(false);

    const { quiz } = await createUserWithEverything(db.prisma);
    const samePosition = await db.prisma.question
      .create({ data: { quizId: quiz.id, position: 0, type: 'yes_no', text: 'again', key: {} } })
      .catch((err: unknown) => err);
    expect(isUniqueViolation(samePosition, 'position')).toBe(true);
    expect(isUniqueViolation(samePosition, 'quizId')).toBe(true);

    const missing = await db.prisma.user
      .update({ where: { id: 'nope' }, data: { keySeq: 1 } })
      .catch((e: unknown) => e);
    expect(isUniqueViolation(missing)).toBe(false); // P2025, not a duplicate
    expect(isUniqueViolation(new Error('P2002'))).toBe(false);
    expect(isUniqueViolation(null)).toBe(false);
  });
}

describe('sqlite', () => {
  databaseSuite('sqlite');

  test('WAL, a busy timeout of seconds, and foreign keys on', async () => {
    const db = await createTestDatabase('sqlite');
    try {
      const pragma = async (name: string) =>
        Object.values(
          (await db.prisma.$queryRawUnsafe<Array<Record<string, unknown>>>(`PRAGMA ${name}`))[0] ?? {},
        )[0];
      expect(await pragma('journal_mode')).toBe('wal');
      expect(Number(await pragma('busy_timeout'))).toBeGreaterThanOrEqual(5_000);
      expect(Number(await pragma('foreign_keys'))).toBe(1);
    } finally {
      await db.drop();
    }
  });

  // Another process holds the write lock; a read-then-write transaction must wait for it, not fail
  // with SQLITE_BUSY (P1008), and must then see that process's write (no lost update).
  test('a transaction waits for a write lock held by another process', async () => {
    const db = await createTestDatabase('sqlite');
    try {
      const user = await createUser(db.prisma);
      const holder = spawn(process.execPath, ['-e', HOLD_WRITE_LOCK], {
        env: {
          ...process.env,
          BETTER_SQLITE3: require.resolve('better-sqlite3'),
          DB_FILE: db.url.slice('file:'.length),
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const exited = once(holder, 'exit');
      await once(holder.stdout, 'data'); // "locked"
      await db.prisma.$transaction(async (tx) => {
        const current = await tx.user.findUniqueOrThrow({ where: { id: user.id } });
        await tx.user.update({ where: { id: user.id }, data: { keySeq: current.keySeq + 1 } });
      });
      expect((await exited)[0]).toBe(0);
      expect((await db.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).keySeq).toBe(2);
    } finally {
      await db.drop();
    }
  });

  test('a relative file: URL resolves against the working directory, creating its folder', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quiz-cwd-'));
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const db = await openDatabase('file:./nested/folder/app.db');
      await db.close();
      expect(fs.existsSync(path.join(dir, 'nested', 'folder', 'app.db'))).toBe(true);
    } finally {
      process.chdir(cwd);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describeWithPostgres('postgresql', () => {
  databaseSuite('postgresql');

  test('two instances migrating one fresh database at once both succeed, applying each migration once', async () => {
    const db = await createTestDatabase('postgresql', { migrate: false });
    try {
      const [a, b] = await Promise.all([applyMigrations(db.url), applyMigrations(db.url)]);
      const all = fs
        .readdirSync(migrationsDir('postgresql'), { withFileTypes: true })
        .filter((e) => e.isDirectory());
      expect([...a.applied, ...b.applied].sort()).toEqual(all.map((e) => e.name).sort());
      const rows = await db.prisma.$queryRawUnsafe<Array<{ n: bigint }>>(
        'SELECT count(*) AS n FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
      );
      expect(Number(rows[0]?.n)).toBe(all.length);
      expect(await db.prisma.user.count()).toBe(0);
    } finally {
      await db.drop();
    }
  });
});

describeWithPostgres('a PostgreSQL database that does not exist', () => {
  test('start-up says so and how to create it, without a stack trace', async () => {
    const url = new URL(TEST_POSTGRES_URL);
    url.pathname = `/quiz_missing_${Date.now()}`;
    const opening = openDatabase(url.toString());
    await expect(opening).rejects.toBeInstanceOf(DatabaseSetupError);
    await expect(opening).rejects.toThrow(
      new RegExp(
        `database "${url.pathname.slice(1)}" does not exist on ${url.hostname}:\\d+\\. Create it once, for example \`createdb -h`,
      ),
    );
  });
});

test('openDatabase rejects an unsupported scheme clearly', async () => {
  await expect(openDatabase('mysql://root@localhost/quiz')).rejects.toThrow(
    /Unsupported DATABASE_URL scheme "mysql:"/,
  );
  await expect(openDatabase('./quiz.db')).rejects.toThrow(/Unsupported DATABASE_URL scheme/);
});

test('describeDatabaseUrl masks the password only', () => {
  expect(describeDatabaseUrl('postgresql://quiz:s3cret@db.internal:5432/quiz?sslmode=require')).toBe(
    'postgresql://quiz:***@db.internal:5432/quiz?sslmode=require',
  );
  expect(describeDatabaseUrl('postgresql://postgres@127.0.0.1:5432/test')).toBe(
    'postgresql://postgres@127.0.0.1:5432/test',
  );
  expect(describeDatabaseUrl('file:./data/quiz.db')).toBe('file:./data/quiz.db');
  expect(describeDatabaseUrl('postgres://u:p%40ss@h/db')).not.toContain('p%40ss');
});

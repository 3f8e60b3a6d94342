/**
 * Rows made under every earlier migration, and what they must read as once upgraded
 * (tests/db/migration-fixtures.test.ts):
 *
 *   node dist/scripts/make-migration-fixtures.js sql        (after `npm run build`)
 *   node dist/scripts/make-migration-fixtures.js expected
 *
 * `sql` writes tests/fixtures/migrations/<migration>.sql for each migration before MOVED (the one
 * that moved keys and answers into JSON values): a quiz with a question of each type that schema
 * has, its options, responses and answers, and the running figures when the schema has them,
 * written with the columns that schema has (read from a database migrated that far) in SQL both
 * databases take.
 *
 * `expected` applies each fixture to a database migrated that far, upgrades it to the latest
 * migration of the checkout it runs in, and writes what the code reports:
 * tests/fixtures/migrations/expected.json (scores, get_results, the CSV's cells, the running
 * figures, and what re-marking changes). It was run on the code before MOVED, whose commit the
 * file records: the test holds the code after it to the same answers. Re-running it on later code
 * would only record that code's own answers.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { openDatabase, type Database } from '../src/db/database';
import {
  applyMigrations,
  migrationsDir,
  readMigrationList,
  schemaFile,
  type Provider,
} from '../src/db/migrate';
import { openSchemaEngine } from '../src/db/schema-engine';
import type { DomainDeps } from '../src/domain/deps';
import { exportResponses } from '../src/domain/quizzes/export-responses';
import { getResults } from '../src/domain/reporting/get-results';
import { remarkAllResponses } from '../src/domain/grading/remark-responses';
import { packageRoot } from '../src/package-root';

/** The migration that moved keys and answers into JSON values: fixtures are made for those before it. */
export const MOVED = '20261126164845_keys_and_answers_as_json';
export const FIXTURES_DIR = path.join(packageRoot, 'tests', 'fixtures', 'migrations');
export const OWNER_ID = 'fixture-owner';
export const QUIZ_ID = 'fixture-quiz';

/** The committed migrations before MOVED, oldest first. */
export function earlierMigrations(provider: Provider = 'sqlite'): string[] {
  return readMigrationList(provider)
    .migrationDirectories.map((dir) => dir.path)
    .filter((name) => name < MOVED);
}

/** Applies the committed migrations up to and including `last` (a copy of the folder holds only those). */
export async function migrateUpTo(provider: Provider, target: string, last: string): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quiz-fixture-migrations-'));
  try {
    const source = migrationsDir(provider);
    for (const name of readMigrationList(provider).migrationDirectories.map((d) => d.path)) {
      if (name > last) continue;
      fs.cpSync(path.join(source, name), path.join(dir, name), { recursive: true });
    }
    fs.copyFileSync(path.join(source, 'migration_lock.toml'), path.join(dir, 'migration_lock.toml'));
    const engine = await openSchemaEngine({ provider, target, schema: schemaFile(provider) });
    try {
      await engine.applyMigrations(readMigrationList(provider, dir));
    } finally {
      await engine.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

type Value = string | number | boolean | null;
type Row = Record<string, Value>;

const AT = (minute: number) => `2026-01-15T10:${String(minute).padStart(2, '0')}:00.000+00:00`;

interface FixtureQuestion {
  id: string;
  type: string;
  text: string;
  /** The type's key as the columns of the time held it. */
  points?: number | null;
  correctAnswer?: string | null;
  acceptedAnswers?: string | null;
  correctNumber?: number | null;
  tolerance?: number | null;
  options?: Array<{ label: string; score: number }>;
  explanation?: string;
  /** Needs the columns of the typed types (the five_question_types migration). */
  typed?: boolean;
}

const QUESTIONS: FixtureQuestion[] = [
  { id: 'fq-yes', type: 'yes_no', text: 'Is Milan the capital of Italy?', points: 2, correctAnswer: 'no' },
  // Made before keys existed: no points and no key (it reads as 0 points for "yes").
  { id: 'fq-old-yes', type: 'yes_no', text: 'Is water wet?', points: null, correctAnswer: null },
  {
    id: 'fq-choice',
    type: 'multiple_choice',
    text: 'Capital of France?',
    options: [
      { label: 'Paris', score: 2 },
      { label: 'Lyon', score: 0 },
      { label: 'Nice', score: -1 },
    ],
    explanation: 'Paris, since the tenth century.',
  },
  {
    id: 'fq-ticks',
    type: 'multiple_select',
    text: 'Which are primary colours?',
    options: [
      { label: 'Red', score: 1 },
      { label: 'Blue', score: 1 },
      { label: 'Green; or not', score: -1 },
    ],
    typed: true,
  },
  {
    id: 'fq-text',
    type: 'short_text',
    text: 'Which country has Lima as its capital?',
    points: 3,
    acceptedAnswers: JSON.stringify(['Perú', 'Peru']),
    typed: true,
  },
  {
    id: 'fq-comment',
    type: 'short_text',
    text: 'Any comments?',
    points: null,
    acceptedAnswers: null,
    typed: true,
  },
  {
    id: 'fq-number',
    type: 'number',
    text: 'Half of seven?',
    points: 1,
    correctNumber: 3.5,
    tolerance: 0.25,
    typed: true,
  },
];

/** An answer as the columns of the time held it; absent: unanswered. */
interface FixtureAnswer {
  choice?: string;
  optionIndex?: number;
  optionLabel?: string;
  choices?: number[];
  text?: string;
  number?: number;
  /** Stored points when they differ from the key's (a key fixed since, not re-marked yet). */
  stale?: number;
}

const RESPONSES: Array<{
  name: string | null;
  email: string | null;
  answers: Record<string, FixtureAnswer>;
}> = [
  {
    name: 'Ana',
    email: 'ana@example.com',
    answers: {
      'fq-yes': { choice: 'no' },
      'fq-old-yes': { choice: 'yes' },
      'fq-choice': { optionIndex: 0, optionLabel: 'Paris' },
      'fq-ticks': { choices: [0, 1] },
      'fq-text': { text: 'peru' },
      'fq-comment': { text: 'Fun, "really"; thanks' },
      'fq-number': { number: 3.5, text: '3,5' },
    },
  },
  {
    name: 'Bruno',
    email: null,
    answers: {
      'fq-yes': { choice: 'yes' },
      // Answered under an earlier label: the answer keeps the label it was given.
      'fq-choice': { optionIndex: 2, optionLabel: 'Nizza' },
      'fq-ticks': { choices: [] },
      'fq-text': { text: 'Lima' },
      'fq-number': { number: 3.75, text: '3.75' },
    },
  },
  {
    name: null,
    email: null,
    answers: {
      'fq-yes': { choice: 'no', stale: 0 },
      'fq-old-yes': { choice: 'no' },
      'fq-choice': { optionIndex: 1, optionLabel: 'Lyon' },
      'fq-ticks': { choices: [2, 0] },
      'fq-text': { text: '  PERU ' },
      'fq-number': { number: -2, text: '-2' },
    },
  },
  { name: 'Dora', email: 'dora@example.com', answers: {} },
];

/** A question answered in an earlier version of the quiz, since replaced: its answers stay (CSV's "earlier version"). */
const EARLIER = { id: 'fq-earlier', type: 'yes_no', text: 'Was this asked before?' };

/** The key's points for an answer, by the rules of the time (domain/question-types/). */
function pointsOf(question: FixtureQuestion, answer: FixtureAnswer | undefined): number {
  if (!answer) return 0;
  if (answer.stale !== undefined) return answer.stale;
  switch (question.type) {
    case 'yes_no':
      return answer.choice === (question.correctAnswer === 'no' ? 'no' : 'yes') ? (question.points ?? 0) : 0;
    case 'multiple_choice':
      return question.options![answer.optionIndex!]?.score ?? 0;
    case 'multiple_select':
      return Math.max(
        0,
        answer.choices!.reduce((sum, index) => sum + (question.options![index]?.score ?? 0), 0),
      );
    case 'short_text': {
      const accepted = JSON.parse(question.acceptedAnswers ?? '[]') as string[];
      const fold = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();
      return accepted.some((text) => fold(text) === fold(answer.text!)) ? (question.points ?? 0) : 0;
    }
    default:
      return Math.abs(answer.number! - question.correctNumber!) <= (question.tolerance ?? 0) + 1e-9
        ? (question.points ?? 0)
        : 0;
  }
}

function maxOf(question: FixtureQuestion): number {
  switch (question.type) {
    case 'multiple_choice':
      return Math.max(...question.options!.map((option) => option.score));
    case 'multiple_select':
      return question.options!.reduce((sum, option) => sum + Math.max(option.score, 0), 0);
    case 'short_text':
      return question.acceptedAnswers ? Math.max(question.points ?? 0, 0) : 0;
    default:
      return Math.max(question.points ?? 0, 0);
  }
}

/** The rows of the fixture, table by table, before the schema's columns filter them. */
function fixtureRows(columns: Map<string, Set<string>>): Array<[string, Row]> {
  const has = (table: string, column: string) => columns.get(table)?.has(column) ?? false;
  const typed = has('questions', 'acceptedAnswers');
  const questions = QUESTIONS.filter((question) => typed || !question.typed);
  const rows: Array<[string, Row]> = [
    [
      'users',
      { id: OWNER_ID, email: 'owner@example.com', passwordHash: 'x', createdAt: AT(0), updatedAt: AT(0) },
    ],
    [
      'quizzes',
      {
        id: QUIZ_ID,
        ownerId: OWNER_ID,
        title: 'Fixture quiz',
        titleKey: 'fixture quiz',
        slug: 'fixture-quiz',
        status: 'published',
        version: 2,
        publishedAt: AT(1),
        createdAt: AT(0),
        updatedAt: AT(2),
        passMarkPercent: 50,
        showCorrectAnswers: 'after_submit',
      },
    ],
  ];
  questions.forEach((question, position) => {
    rows.push([
      'questions',
      {
        id: question.id,
        quizId: QUIZ_ID,
        position,
        type: question.type,
        text: question.text,
        points: question.points ?? null,
        correctAnswer: question.correctAnswer ?? null,
        acceptedAnswers: question.acceptedAnswers ?? null,
        correctNumber: question.correctNumber ?? null,
        tolerance: question.tolerance ?? null,
        explanation: question.explanation ?? null,
      },
    ]);
    (question.options ?? []).forEach((option, index) =>
      rows.push([
        'options',
        { id: `${question.id}-o${index}`, questionId: question.id, position: index, ...option },
      ]),
    );
  });
  const figures = new Figures();
  RESPONSES.forEach((response, r) => {
    const id = `fr-${r}`;
    const answered = questions.map((question) => ({ question, answer: response.answers[question.id] }));
    const earlier =
      r === 0 ? [{ question: EARLIER as FixtureQuestion, answer: { choice: 'yes' } as FixtureAnswer }] : [];
    const marks = [...earlier, ...answered].map(({ question, answer }) => ({
      question,
      answer,
      points: question === (EARLIER as FixtureQuestion) ? 0 : pointsOf(question, answer),
      maxPoints: question === (EARLIER as FixtureQuestion) ? 1 : maxOf(question),
    }));
    const scored = marks.filter((mark) => mark.question !== (EARLIER as FixtureQuestion));
    const score = scored.reduce((sum, mark) => sum + mark.points, 0);
    const maxScore = scored.reduce((sum, mark) => sum + mark.maxPoints, 0);
    const percent = maxScore > 0 ? (score / maxScore) * 100 : null;
    const passed = percent === null ? null : percent >= 50;
    rows.push([
      'responses',
      {
        id,
        quizId: QUIZ_ID,
        quizVersion: r === 0 ? 1 : 2,
        respondentName: response.name,
        respondentEmail: response.email,
        score,
        maxScore,
        percent,
        passed,
        submittedAt: AT(10 + r),
      },
    ]);
    marks.forEach(({ question, answer, points, maxPoints }, position) => {
      const row: Row = {
        id: `${id}-a${position}`,
        responseId: id,
        quizId: QUIZ_ID,
        questionId: question.id,
        position,
        questionText: question.text,
        type: question.type,
        choice: answer?.choice ?? null,
        optionIndex: answer?.optionIndex ?? null,
        optionLabel:
          answer?.optionLabel ??
          (answer?.choices ? answer.choices.map((i) => question.options![i]!.label).join('; ') : null),
        choices: answer?.choices ? JSON.stringify(answer.choices) : null,
        text: answer?.text ?? null,
        number: answer?.number ?? null,
        points,
        maxPoints,
      };
      rows.push(['answers', row]);
      figures.add(row, { score, percent, passed });
    });
    figures.addScore(score, maxScore, passed);
  });
  if (columns.has('result_items')) rows.push(...figures.rows());
  return rows;
}

/** The running figures as the code of those schemas kept them (db/result-aggregates.ts then). */
class Figures {
  private scores = new Map<string, Row>();
  private items = new Map<string, Row>();
  private values = new Map<string, Row>();
  addScore(score: number, maxScore: number, passed: boolean | null) {
    const code = passed === null ? -1 : passed ? 1 : 0;
    const key = `${score}/${maxScore}/${code}`;
    const row = this.scores.get(key) ?? { quizId: QUIZ_ID, score, maxScore, passed: code, count: 0 };
    row.count = (row.count as number) + 1;
    this.scores.set(key, row);
  }
  add(answer: Row, response: { score: number; percent: number | null; passed: boolean | null }) {
    const points = answer.points as number;
    const choiceKey =
      answer.choice !== null
        ? (answer.choice as string)
        : answer.optionIndex !== null
          ? String(answer.optionIndex)
          : answer.choices !== null
            ? (answer.choices as string)
            : answer.text !== null
              ? points > 0
                ? 'right'
                : 'wrong'
              : '';
    const percent = response.percent;
    const bucket = percent === null ? -1 : percent < 0 ? 0 : percent >= 100 ? 100 : Math.trunc(percent);
    const key = `${answer.questionId}/${bucket}/${choiceKey}`;
    const item: Row = this.items.get(key) ?? {
      quizId: QUIZ_ID,
      questionId: answer.questionId as string,
      bucket,
      choiceKey,
      count: 0,
      sumX: 0,
      sumX2: 0,
      sumXT: 0,
      sumT: 0,
      sumT2: 0,
      sumMax: 0,
    };
    const t = response.score;
    const add = (field: string, by: number) => (item[field] = (item[field] as number) + by);
    add('count', 1);
    add('sumX', points);
    add('sumX2', points * points);
    add('sumXT', points * t);
    add('sumT', t);
    add('sumT2', t * t);
    add('sumMax', answer.maxPoints as number);
    this.items.set(key, item);
    const typed =
      answer.number !== null
        ? { value: '', num: answer.number as number }
        : answer.text !== null
          ? { value: answer.text as string, num: 0 }
          : null;
    if (typed) {
      const valueKey = `${answer.questionId}/${typed.value}/${typed.num}`;
      const row: Row = this.values.get(valueKey) ?? {
        quizId: QUIZ_ID,
        questionId: answer.questionId as string,
        ...typed,
        count: 0,
      };
      row.count = (row.count as number) + 1;
      this.values.set(valueKey, row);
    }
  }
  rows(): Array<[string, Row]> {
    return [
      ...[...this.scores.values()].map((row): [string, Row] => ['result_scores', row]),
      ...[...this.items.values()].map((row): [string, Row] => ['result_items', row]),
      ...[...this.values.values()].map((row): [string, Row] => ['result_values', row]),
    ];
  }
}

/** A literal both databases take: booleans as '1'/'0' (SQLite stores 1/0, PostgreSQL reads them as booleans). */
function literal(value: Value): string {
  if (value === null) return 'NULL';
  if (typeof value === 'boolean') return value ? "'1'" : "'0'";
  if (typeof value === 'number') return String(value);
  return `'${value.replace(/'/g, "''")}'`;
}

/** The fixture's SQL under the columns a schema has. */
export function fixtureSql(columns: Map<string, Set<string>>, migration: string): string {
  const lines = [
    `-- Rows made under migration ${migration}, with the columns it leaves: scripts/make-migration-fixtures.ts wrote this.`,
  ];
  for (const [table, row] of fixtureRows(columns)) {
    const have = columns.get(table);
    if (!have) continue;
    const names = Object.keys(row).filter((name) => have.has(name));
    lines.push(
      `INSERT INTO "${table}" (${names.map((name) => `"${name}"`).join(', ')}) VALUES (${names
        .map((name) => literal(row[name]!))
        .join(', ')});`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** The tables and columns of an SQLite database. */
function sqliteColumns(file: string): Map<string, Set<string>> {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as Array<{
      name: string;
    }>;
    return new Map(
      tables.map(({ name }) => [
        name,
        new Set(
          (db.prepare(`PRAGMA table_info("${name}")`).all() as Array<{ name: string }>).map((c) => c.name),
        ),
      ]),
    );
  } finally {
    db.close();
  }
}

/** Runs a fixture's statements on a database at its migration. */
export async function loadFixture(provider: Provider, target: string, sql: string): Promise<void> {
  const statements = sql
    .split('\n')
    .filter((line) => line.startsWith('INSERT'))
    .map((line) => line.replace(/;$/, ''));
  if (provider === 'sqlite') {
    const db = new BetterSqlite3(target);
    try {
      db.transaction(() => statements.forEach((statement) => db.prepare(statement).run()))();
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: target });
  await client.connect();
  try {
    await client.query('BEGIN');
    for (const statement of statements) await client.query(statement);
    await client.query('COMMIT');
  } finally {
    await client.end();
  }
}

/** What the code reports about the fixture's quiz: the figures the upgrade must keep. */
export async function report(database: Database) {
  const deps: DomainDeps = { repos: database.repos, baseUrl: 'http://quiz.test' };
  const figures = async () => {
    const rows = await database.repos.responses.figures(QUIZ_ID);
    const sorted = <T>(list: T[]) =>
      list
        .map((row) => JSON.stringify(row))
        .sort()
        .map((row) => JSON.parse(row) as T);
    return { scores: sorted(rows.scores), items: sorted(rows.items), values: sorted(rows.values) };
  };
  const results = await getResults(deps, OWNER_ID, { ref: QUIZ_ID, limit: 100 } as Parameters<
    typeof getResults
  >[2]);
  const csv = await exportResponses(deps, OWNER_ID, QUIZ_ID);
  const rows: unknown[][] = [csv.header];
  for await (const row of csv.rows()) rows.push(row);
  // The grading columns came after the answers were recorded: they are reported apart (`later`).
  const gradingAt = csv.header.indexOf('grading_status');
  const cells = rows.map((row) => (gradingAt < 0 ? row : row.slice(0, gradingAt)));
  const gradingCells = rows.map((row) => (gradingAt < 0 ? [] : row.slice(gradingAt)));
  const stored = await figures();
  await database.repos.responses.recomputeFigures(QUIZ_ID);
  const recomputed = await figures();
  const { remarked, ...remarkedToo } = await remarkAllResponses(deps, OWNER_ID, QUIZ_ID);
  const after = await getResults(deps, OWNER_ID, { ref: QUIZ_ID, limit: 100 } as Parameters<
    typeof getResults
  >[2]);
  return {
    results,
    csv: cells,
    figures: stored,
    recomputed,
    remarked,
    scores_after_remark: after.responses.map((response) => [
      response.response_id,
      response.score,
      response.max_score,
    ]),
    figures_after_remark: await figures(),
    /** What the code reports beyond the recorded answers: grading came later. */
    later: { csv_grading: gradingCells, remarked: remarkedToo },
  };
}

async function writeSql(): Promise<void> {
  fs.mkdirSync(FIXTURES_DIR, { recursive: true });
  for (const migration of earlierMigrations()) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quiz-fixture-'));
    try {
      const file = path.join(dir, 'quiz.db');
      await migrateUpTo('sqlite', file, migration);
      fs.writeFileSync(
        path.join(FIXTURES_DIR, `${migration}.sql`),
        fixtureSql(sqliteColumns(file), migration),
      );
      console.log(`wrote tests/fixtures/migrations/${migration}.sql`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
}

async function writeExpected(): Promise<void> {
  const expected: Record<string, unknown> = {};
  for (const migration of earlierMigrations()) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quiz-fixture-'));
    try {
      const file = path.join(dir, 'quiz.db');
      await migrateUpTo('sqlite', file, migration);
      await loadFixture('sqlite', file, fs.readFileSync(path.join(FIXTURES_DIR, `${migration}.sql`), 'utf8'));
      await applyMigrations(`file:${file}`);
      const database = await openDatabase(`file:${file}`, { migrate: false });
      try {
        // `later` is what the test checks apart, not a recorded answer.
        const { later: _later, ...recorded } = await report(database);
        expected[migration] = recorded;
      } finally {
        await database.close();
      }
      console.log(`recorded ${migration}`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: packageRoot, encoding: 'utf8' }).trim();
  fs.writeFileSync(
    path.join(FIXTURES_DIR, 'expected.json'),
    `${JSON.stringify({ recorded_with: commit, by_migration: expected }, null, 2)}\n`,
  );
}

if (require.main === module) {
  const mode = process.argv[2];
  const run = mode === 'sql' ? writeSql : mode === 'expected' ? writeExpected : undefined;
  if (!run) {
    console.error('usage: node dist/scripts/make-migration-fixtures.js sql|expected');
    process.exit(2);
  }
  run().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}

/**
 * npm run bench:scale [-- --postgres postgresql://...]
 *
 * get_results (the domain call the tool makes, summary, statistics, item analysis and a page of
 * 5 responses) on a 5-question quiz, one question of each type, at 1,000, 100,000 and 1,000,000
 * responses on SQLite, and at 100,000 on PostgreSQL when a URL is given. The responses are
 * seeded through the bulk loader (src/domain/taking/bulk-responses.ts, whose rows
 * tests/db/bulk-responses.test.ts proves equal to the JSON route's). Prints the median of
 * repeated calls at each size and the ratio of the largest to the smallest.
 * BENCH_SCALE_SIZES=1000,100000 picks other sizes. Not part of the test suite: seeding a million
 * responses takes minutes on a small machine.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Database } from '../src/db/database';
import { QuestionsInputSchema } from '../src/domain/quiz-input';
import { createQuiz } from '../src/domain/quizzes/create-quiz';
import { loadOwnedQuiz } from '../src/domain/owned/load-owned-quiz';
import { loadResponses, responseRowOf } from '../src/domain/taking/bulk-responses';
import { getResults } from '../src/domain/reporting/get-results';
import { createUser } from '../src/domain/users';

const SIZES = (process.env.BENCH_SCALE_SIZES ?? '1000,100000,1000000').split(',').map(Number);
const CALLS = 30;
const ROUNDS = 3;
const BATCH = 10_000;

const QUESTIONS = [
  { type: 'yes_no', text: 'Is the sky blue?', points: 2 },
  {
    type: 'multiple_choice',
    text: 'Capital of Italy?',
    options: [
      { label: 'Rome', score: 3 },
      { label: 'Milan', score: 0 },
      { label: 'Turin', score: 1 },
    ],
  },
  {
    type: 'multiple_select',
    text: 'Which are primes?',
    options: [
      { label: '2', score: 1 },
      { label: '4', score: -1 },
      { label: '5', score: 1 },
    ],
  },
  { type: 'short_text', text: 'Capital of Peru?', points: 1, accepted_answers: ['Lima'] },
  { type: 'number', text: 'Six times seven?', points: 2, correct_number: 42 },
];

/** Respondent i's answers: a fixed spread, so every run seeds the same data. */
function inputOf(ids: string[], i: number) {
  return {
    respondent: { name: `Respondent ${i}` },
    answers: [
      { question_id: ids[0]!, answer: i % 3 === 0 ? 'no' : 'yes' },
      { question_id: ids[1]!, option_index: i % 3 },
      { question_id: ids[2]!, choices: [[0, 2], [0], [1], [0, 1, 2]][i % 4]! },
      { question_id: ids[3]!, text: ['Lima', 'lima', 'Cusco', 'Quito', 'Arequipa'][i % 5]! },
      { question_id: ids[4]!, number: 40 + (i % 5) },
    ],
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function measure(database: Database, label: string, sizes: number[]) {
  const deps = { repos: database.repos, baseUrl: 'http://127.0.0.1' };
  const user = await createUser(database.repos, {
    email: `scale-${Date.now()}@example.com`,
    password: 'benchmark-password',
  });
  const figures: Array<[number, number]> = [];
  const quizzes: Array<{ size: number; id: string }> = [];
  for (const size of sizes) {
    const created = await createQuiz(deps, user.id, {
      title: `Scale ${size}`,
      questions: QuestionsInputSchema.parse(QUESTIONS),
    });
    const quiz = await loadOwnedQuiz(deps, user.id, created.quiz_id);
    const ids = quiz.questions.map((question) => question.id);
    const seeding = Date.now();
    const base = Date.now() - size * 10;
    for (let from = 0; from < size; from += BATCH) {
      const rows = [];
      for (let i = from; i < Math.min(size, from + BATCH); i += 1) {
        rows.push({ row: responseRowOf(quiz, inputOf(ids, i)), at: new Date(base + i * 10) });
      }
      await loadResponses(database.repos, rows);
    }
    console.log(
      `${label}: seeded ${size.toLocaleString('en')} responses in ${((Date.now() - seeding) / 1000).toFixed(1)} s`,
    );
    quizzes.push({ size, id: quiz.id });
  }
  // Timed after every size is seeded, in alternating rounds, each after warm-up calls: JIT and
  // host drift fall on every size alike.
  const times = new Map<number, number[]>(quizzes.map((quiz) => [quiz.size, []]));
  for (const quiz of quizzes)
    for (let call = 0; call < 20; call += 1) await getResults(deps, user.id, { ref: quiz.id, limit: 5 });
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const quiz of quizzes) {
      for (let call = 0; call < CALLS / ROUNDS; call += 1) {
        const started = process.hrtime.bigint();
        const answer = await getResults(deps, user.id, { ref: quiz.id, limit: 5 });
        times.get(quiz.size)!.push(Number(process.hrtime.bigint() - started) / 1e6);
        if (answer.summary.response_count !== quiz.size)
          throw new Error(`counted ${answer.summary.response_count} of ${quiz.size}`);
      }
    }
  }
  for (const quiz of quizzes) {
    const sorted = [...times.get(quiz.size)!].sort((a, b) => a - b);
    const ms = median(sorted);
    figures.push([quiz.size, ms]);
    console.log(
      `${label}: get_results at ${quiz.size.toLocaleString('en')} responses: median ${ms.toFixed(2)} ms over ${sorted.length} calls ` +
        `(p90 ${sorted[Math.floor(sorted.length * 0.9)]!.toFixed(2)} ms)`,
    );
  }
  const [smallest, largest] = [figures[0]!, figures[figures.length - 1]!];
  if (figures.length > 1) {
    console.log(
      `${label}: ${largest[0].toLocaleString('en')} vs ${smallest[0].toLocaleString('en')} responses: ` +
        `${(largest[1] / smallest[1]).toFixed(2)}x (goal <= 2x; and under 50 ms at a million on SQLite)\n`,
    );
  }
  return figures;
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quiz-bench-scale-'));
  console.log(
    `scale benchmark: node ${process.version}, ${os.cpus().length} cores; get_results called in process\n`,
  );
  const results: Record<string, Array<[number, number]>> = {};
  try {
    const sqlite = await openDatabase(`file:${path.join(dir, 'scale.db')}`, { migrate: true });
    try {
      results.sqlite = await measure(sqlite, 'SQLite', SIZES);
    } finally {
      await sqlite.close();
    }
    const argPg = process.argv.indexOf('--postgres');
    if (argPg > 0) {
      const postgres = await openDatabase(process.argv[argPg + 1]!, { migrate: true });
      try {
        results.postgresql = await measure(postgres, 'PostgreSQL', [100_000]);
      } finally {
        await postgres.close();
      }
    }
    console.log(`bench-scale: ${JSON.stringify(results)}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((error) => {
  console.error(error);
  process.exit(1);
});

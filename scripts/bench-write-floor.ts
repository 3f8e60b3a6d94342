/**
 * The reference write the submission benchmark compares the service with: a bare Express 5 JSON
 * route that stores the same submission with better-sqlite3 prepared statements in one
 * transaction (1 response row, one answer row per answer with text keys, one aggregate upsert
 * per answer), without validation, scoring, limits or anything else the service does. Run by
 * scripts/bench-submit.ts as `node dist/scripts/bench-write-floor.js <port> <sqlite file>`.
 */
import { randomUUID } from 'node:crypto';
import BetterSqlite3 from 'better-sqlite3';
import express from 'express';

const port = Number(process.argv[2]);
const db = new BetterSqlite3(process.argv[3]!, { timeout: 10_000 });
db.pragma('journal_mode = WAL');
db.exec(`
  CREATE TABLE IF NOT EXISTS ref_responses (id TEXT PRIMARY KEY, quiz_id TEXT NOT NULL, name TEXT, score INTEGER NOT NULL, submitted_at TEXT NOT NULL);
  CREATE INDEX IF NOT EXISTS ref_responses_quiz ON ref_responses (quiz_id, submitted_at, id);
  CREATE TABLE IF NOT EXISTS ref_answers (id TEXT PRIMARY KEY, response_id TEXT NOT NULL, quiz_id TEXT NOT NULL, question_id TEXT NOT NULL, position INTEGER NOT NULL, choice TEXT, points INTEGER NOT NULL);
  CREATE INDEX IF NOT EXISTS ref_answers_response ON ref_answers (response_id);
  CREATE INDEX IF NOT EXISTS ref_answers_question ON ref_answers (quiz_id, question_id);
  CREATE TABLE IF NOT EXISTS ref_items (quiz_id TEXT NOT NULL, question_id TEXT NOT NULL, choice TEXT NOT NULL, count INTEGER NOT NULL, sum_x REAL NOT NULL, PRIMARY KEY (quiz_id, question_id, choice));
`);
const insertResponse = db.prepare(
  'INSERT INTO ref_responses (id, quiz_id, name, score, submitted_at) VALUES (?, ?, ?, ?, ?)',
);
const insertAnswer = db.prepare(
  'INSERT INTO ref_answers (id, response_id, quiz_id, question_id, position, choice, points) VALUES (?, ?, ?, ?, ?, ?, ?)',
);
const upsert = db.prepare(
  'INSERT INTO ref_items (quiz_id, question_id, choice, count, sum_x) VALUES (?, ?, ?, 1, ?) ' +
    'ON CONFLICT (quiz_id, question_id, choice) DO UPDATE SET count = count + 1, sum_x = sum_x + excluded.sum_x',
);
interface Body {
  respondent?: { name?: string };
  answers: Array<{ question_id: string; answer?: string; option_index?: number }>;
}
const store = db.transaction((quizId: string, body: Body) => {
  const id = randomUUID();
  insertResponse.run(
    id,
    quizId,
    body.respondent?.name ?? null,
    body.answers.length,
    new Date().toISOString(),
  );
  body.answers.forEach((answer, position) => {
    const choice = answer.answer ?? String(answer.option_index ?? '');
    insertAnswer.run(randomUUID(), id, quizId, answer.question_id, position, choice, 1);
    upsert.run(quizId, answer.question_id, choice, 1);
  });
  return id;
});

const app = express();
app.use(express.json());
app.post('/api/quizzes/:slug/responses', (req, res) => {
  res.status(201).json({ response_id: store(String(req.params.slug), req.body as Body) });
});
app.listen(port, '127.0.0.1');

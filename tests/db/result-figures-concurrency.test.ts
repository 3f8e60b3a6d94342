// The results' running figures under load: two instances over one database, 60 respondents
// submitting at once through the JSON route, deletions (some of the same response from both
// instances at once) mixed in. Afterwards the figures must equal a full recomputation from the
// rows, row for row, and their counts the rows stored.
import pg from 'pg';
import request from 'supertest';
import type { ResultRows } from '../../src/db/response-writes';
import { deleteResponse } from '../../src/domain/reporting/delete-response';
import { isDomainError } from '../../src/domain/errors';
import { createTestDatabase, TEST_POSTGRES_URL, type TestDatabase } from '../helpers/test-database';
import {
  describeEachDatabase,
  raisedLimits,
  startTwoInstances,
  type TwoInstances,
} from '../helpers/test-app';
import { createPublishedQuiz, type PublishedQuiz } from '../respondent/respondent-fixtures';

const SUBMITTERS = 60;

/** Rows in one order, so two reads compare with toEqual. */
function sorted(rows: ResultRows) {
  const key = (row: object) => JSON.stringify(Object.values(row));
  return {
    scores: [...rows.scores].sort((a, b) => key(a).localeCompare(key(b))),
    items: [...rows.items].sort((a, b) => key(a).localeCompare(key(b))),
    values: [...rows.values].sort((a, b) => key(a).localeCompare(key(b))),
    firstSubmittedAt: rows.firstSubmittedAt,
    lastSubmittedAt: rows.lastSubmittedAt,
  };
}

describeEachDatabase('running figures with concurrent submitters on two instances', (provider) => {
  let database: TestDatabase;
  let instances: TwoInstances;
  let quiz: PublishedQuiz;
  let closed = false;

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    instances = await startTwoInstances(database, { config: raisedLimits() });
    quiz = await createPublishedQuiz(instances.viaOne, `Figures ${provider}`, {
      settings: { pass_mark_percent: 60, require_all_answers: false },
      questions: [
        { type: 'yes_no', text: 'Is water wet?', points: 2 },
        { type: 'yes_no', text: 'Is fire cold?', points: 3, correct_answer: 'no' },
        {
          type: 'multiple_choice',
          text: 'Pick a prime',
          options: [
            { label: 'Four', score: 0 },
            { label: 'Five', score: 4 },
            { label: 'Nine', score: -1 },
            { label: 'Seven', score: 2 },
          ],
        },
        {
          type: 'multiple_choice',
          text: 'Pick a colour',
          options: [
            { label: 'Red', score: 1 },
            { label: 'Blue', score: 1 },
          ],
        },
        { type: 'short_text', text: 'Say hi', points: 1, accepted_answers: ['hi'] },
        { type: 'number', text: 'Six times seven?', points: 1, correct_number: 42 },
      ],
    });
  }, 60_000);
  afterAll(async () => {
    if (!closed) await instances?.close();
    await database?.drop();
  });

  test(`${SUBMITTERS} submitters and deletions at once: the figures equal a recomputation`, async () => {
    const { one, two } = instances;
    const [water, fire, prime, colour, hi, number] = quiz.questions;
    // A fixed spread of answers, some questions left unanswered.
    const answersOf = (i: number) =>
      [
        i % 5 === 0 ? null : { question_id: water!.question_id, answer: i % 3 === 0 ? 'no' : 'yes' },
        i % 7 === 0 ? null : { question_id: fire!.question_id, answer: i % 2 === 0 ? 'no' : 'yes' },
        i % 11 === 0 ? null : { question_id: prime!.question_id, option_index: i % 4 },
        { question_id: colour!.question_id, option_index: i % 2 },
        i % 6 === 0 ? null : { question_id: hi!.question_id, text: ['hi', 'Hi', 'bye'][i % 3] },
        { question_id: number!.question_id, number: 40 + (i % 4) },
      ].filter((answer) => answer !== null);
    const submit = async (i: number) => {
      const res = await request((i % 2 === 0 ? one : two).app)
        .post(`/api/quizzes/${quiz.slug}/responses`)
        .set('Content-Type', 'application/json')
        .send({ respondent: { name: `R${i}` }, answers: answersOf(i) });
      expect(res.status).toBe(201);
      return res.body.response_id as string;
    };
    const remove = async (via: typeof one, responseId: string) => {
      try {
        await deleteResponse(via.deps.repos, instances.user.id, quiz.quiz_id, responseId);
        return 1;
      } catch (error) {
        if (isDomainError(error) && error.code === 'response_not_found') return 0; // the other won
        throw error;
      }
    };

    // A first wave, so that deletions have something to delete while the rest arrive.
    const early = await Promise.all(Array.from({ length: 10 }, (_, i) => submit(i)));
    const deletions: Array<Promise<number>> = [];
    const late = Array.from({ length: SUBMITTERS - 10 }, (_, j) => submit(10 + j));
    for (const [index, id] of early.entries()) {
      if (index % 2 === 0) {
        // The same response deleted through both instances at once: exactly one deletion counts.
        deletions.push(remove(one, id), remove(two, id));
      }
    }
    const lateIds = await Promise.all(late);
    // Deletions of later responses interleaved with the last submissions of a second wave.
    const wave = Array.from({ length: 10 }, (_, j) => submit(SUBMITTERS + j));
    for (const id of lateIds.slice(0, 8)) deletions.push(remove(one, id), remove(two, id));
    const deleted = (await Promise.all(deletions)).reduce((sum, n) => sum + n, 0);
    await Promise.all(wave);
    expect(deleted).toBe(5 + 8);

    const stored = SUBMITTERS + 10 - deleted;
    const { responses } = database.repos;
    expect(await responses.countForQuiz(quiz.quiz_id)).toBe(stored);
    const kept = sorted(await responses.figures(quiz.quiz_id));
    expect(kept.scores.reduce((sum, row) => sum + row.count, 0)).toBe(stored);
    for (const question of quiz.questions) {
      const seen = kept.items.filter((row) => row.questionId === question.question_id);
      expect(seen.reduce((sum, row) => sum + row.count, 0)).toBe(stored);
    }
    expect(await responses.recomputeFigures(quiz.quiz_id)).toBe(1);
    expect(sorted(await responses.figures(quiz.quiz_id))).toEqual(kept);

    if (provider === 'postgresql') {
      // A deadlock is retried, so it loses nothing, but each one waits out PostgreSQL's deadlock
      // check (a second by default) with the rows locked: writers take a quiz's figures lock first,
      // so none happens. A server process counts its deadlocks when it exits, so every pool ends first.
      await instances.close();
      closed = true;
      await database.close();
      const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await admin.connect();
      try {
        const name = new URL(database.url).pathname.slice(1);
        const { rows } = await admin.query<{ deadlocks: string }>(
          'SELECT "deadlocks" FROM pg_stat_database WHERE datname = $1',
          [name],
        );
        expect(Number(rows[0]!.deadlocks)).toBe(0);
      } finally {
        await admin.end();
      }
    }
  }, 120_000);
});

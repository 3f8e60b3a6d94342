// The client matrix: a refused input whose field error must reach the caller, then one quiz's
// life cycle (create with questions of every type, read, update keeping each question_id,
// publish, one response through the public JSON route, get_results, its essay graded, delete),
// then a GIFT bank imported after a dry run, through the MCP clients of Vercel's AI SDK,
// LangChain, Mastra and mcp-use, each through its own tool wrappers and validation
// (tools/clients/matrix.mjs, on its own Node 22), and through the SDK clients of both eras. Every
// tool is called. Each client's reading is checked against the database, before and after the
// delete.
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { QUESTION_TYPES } from '../../src/domain/quiz-input';
import { TOOLS } from '../../src/mcp/tools';
import fixture from '../fixtures/every-type-quiz.json';
import response from '../fixtures/every-type-response.json';
import { MATRIX_CLIENTS, runMatrix, type MatrixClient } from '../helpers/client-matrix';
import { callTool, forEachEra, payload, type AnyClient } from '../helpers/mcp-clients';
import {
  createTestUser,
  describeEachDatabase,
  raisedLimits,
  startTestApp,
  type TestApp,
  type TestUser,
} from '../helpers/test-app';
import { describeWithTool } from '../helpers/tool-folders';

const FIXTURE = path.resolve(__dirname, '..', 'fixtures', 'every-type-quiz.json');
const RESPONSE = path.resolve(__dirname, '..', 'fixtures', 'every-type-response.json');
const GIFT_BANK = path.resolve(__dirname, '..', 'fixtures', 'import', 'bank.gift');
const RUN_TIMEOUT_MS = 120_000;

const QUESTIONS = fixture.questions;
const TYPES = QUESTIONS.map((question) => question.type);
const EVERY_TOOL = TOOLS.map((tool) => tool.name).sort();

// What the one response earns, from what it answered: the yes_no's points if it is right, and
// nothing for the essay until a grade is final; the other questions are left blank.
const YES_NO = QUESTIONS.find((question) => question.type === 'yes_no')!;
const ESSAY = QUESTIONS.find((question) => question.type === 'essay')!;
const answered = (type: string) => response.answers.find((answer) => answer.type === type)!;
const SCORE = answered('yes_no').answer === YES_NO.correct_answer ? YES_NO.points! : 0;
const ESSAY_TEXT = answered('essay').text!;
const RUBRIC = ESSAY.rubric!;
/** A grade's points: each criterion's chosen level's. */
const pointsOf = (levels: number[]) =>
  levels.reduce((sum, level, criterion) => sum + RUBRIC[criterion]!.levels[level]!.points, 0);
const ESSAY_MAX = RUBRIC.reduce((sum, { levels }) => sum + Math.max(...levels.map((l) => l.points)), 0);
const [PLAIN_GRADE, BRIEF_GRADE] = response.grades;

interface DatabaseView {
  ownerId: string;
  status: string;
  title: string;
  questions: Array<{ id: string; type: string; text: string; key: Record<string, unknown> }>;
  responses: number;
  essayAnswers: Array<{
    points: number;
    gradeState: string | null;
    grade: { state: string; levels: unknown; points: number; feedback: string | null } | null;
  }>;
}

/** A question's answer key as the fixture writes it, from whichever fields its type uses. */
function keyOf(question: Record<string, any>): Record<string, unknown> {
  const { type, text: _text, explanation: _explanation, question_id: _id, ...key } = question;
  if (type === 'yes_no') return { points: 1, correct_answer: 'yes', ...key };
  if (type === 'number') return { tolerance: 0, ...key };
  if (type === 'ordering') return { points: 1, points_per_item: null, ...key };
  if (type === 'matching') return { points_per_pair: 1, extra_matches: [], ...key };
  if (type === 'grid') return { points_per_item: 1, ...key };
  return key;
}

async function readQuiz(app: TestApp, quizId: string): Promise<DatabaseView | null> {
  const quiz = await app.database.prisma.quiz.findUnique({
    where: { id: quizId },
    include: {
      questions: { orderBy: { position: 'asc' } },
    },
  });
  if (!quiz) return null;
  const essays = await app.database.prisma.answer.findMany({
    where: { quizId, type: 'essay' },
    include: { grade: true },
  });
  return {
    ownerId: quiz.ownerId,
    status: quiz.status,
    title: quiz.title,
    questions: quiz.questions.map((question) => ({
      id: question.id,
      type: question.type,
      text: question.text,
      key: storedKey(question),
    })),
    responses: await app.database.prisma.response.count({ where: { quizId } }),
    essayAnswers: essays.map(({ points, gradeState, grade }) => ({
      points,
      gradeState,
      grade: grade && {
        state: grade.state,
        levels: grade.levels,
        points: grade.points,
        feedback: grade.feedback,
      },
    })),
  };
}

/**
 * The response of every-type-response.json through the public JSON route, as matrix.mjs sends it:
 * an attempt first (the calculated question draws its values per attempt), each answer to the
 * question of its type.
 */
async function respond(app: TestApp, slug: string): Promise<Record<string, any>> {
  const attempt = await request(app.app).post(`/api/quizzes/${slug}/attempts`).send({}).expect(201);
  const questions = attempt.body.questions as Array<{ question_id: string; type: string }>;
  const submitted = await request(app.app)
    .post(`/api/quizzes/${slug}/responses`)
    .send({
      attempt_token: attempt.body.attempt_token,
      respondent: response.respondent,
      answers: response.answers.map(({ type, ...answer }) => ({
        question_id: questions.find((question) => question.type === type)!.question_id,
        ...answer,
      })),
    })
    .expect(201);
  return submitted.body;
}

/** A stored question's answer key (its JSON, as its type's module stores it), in the tools' terms. */
function storedKey(question: { type: string; key: unknown }): Record<string, unknown> {
  const key = question.key as {
    points?: number;
    correctAnswer?: string;
    acceptedAnswers?: string[];
    correctNumber?: number;
    tolerance?: number;
    options?: Array<{ label: string; score: number }>;
    items?: Array<{ label: string }>;
    pointsPerItem?: number | null;
    min?: number;
    max?: number;
    labels?: [string, string];
    blanks?: Array<{
      acceptedAnswers: string[];
      options: string[] | null;
      correctOption: number | null;
      points: number;
    }>;
    rubric?: unknown[];
    minWords?: number | null;
    maxWords?: number | null;
    pairs?: Array<{ prompt: string; match: string }>;
    extraMatches?: string[];
    pointsPerPair?: number;
    rows?: string[];
    columns?: string[];
    right?: number[][] | null;
    pointsPerRow?: number;
    formula?: string;
    variables?: unknown[];
    toleranceType?: string;
  };
  switch (question.type) {
    case 'yes_no':
      return { points: key.points, correct_answer: key.correctAnswer };
    case 'short_text':
      return { points: key.points, accepted_answers: key.acceptedAnswers };
    case 'number':
      return { points: key.points, correct_number: key.correctNumber, tolerance: key.tolerance };
    case 'ordering':
      return { points: key.points, points_per_item: key.pointsPerItem, items: key.items };
    case 'matching':
      return {
        pairs: key.pairs,
        extra_matches: key.extraMatches!.map((label) => ({ label })),
        points_per_pair: key.pointsPerPair,
      };
    case 'fill_in_blanks':
      return {
        blanks: key.blanks!.map((blank) =>
          blank.options === null
            ? { accepted_answers: blank.acceptedAnswers, points: blank.points }
            : { options: blank.options, correct_option: blank.correctOption, points: blank.points },
        ),
      };
    case 'scale':
      return { scale_min: key.min, scale_max: key.max, scale_labels: key.labels };
    case 'essay':
      return { min_words: key.minWords, max_words: key.maxWords, rubric: key.rubric };
    case 'grid':
      return {
        items: key.rows!.map((label) => ({ label })),
        columns: key.columns,
        right_columns: key.right,
        points_per_item: key.pointsPerRow,
      };
    case 'calculated':
      return {
        points: key.points,
        formula: key.formula,
        variables: key.variables,
        tolerance: key.tolerance,
        tolerance_type: key.toleranceType,
      };
    default:
      return { options: key.options!.map(({ label, score }) => ({ label, score })) };
  }
}

/** What each client must have read along the way, and what the database held before the delete. */
function expectLifeCycle(
  steps: Record<string, any>,
  before: DatabaseView | undefined,
  user: TestUser,
  label: string,
): void {
  const quizId = steps.create_quiz.quiz_id;
  expect(steps.create_quiz).toMatchObject({ status: 'draft', types: TYPES });
  const read = steps.get_quiz_questions.questions as Array<Record<string, any>>;
  expect(read.map((question) => question.type)).toEqual(TYPES);
  expect(read[0]).toMatchObject({ type: 'yes_no', correct_answer: 'no', points: 2 });
  const ids = read.map((question) => question.question_id);
  expect(steps.edit_questions).toEqual({ changes: [{ op: 'update', id: 'kept' }] });
  expect(steps.few_questions).toEqual({ positions: [1, 2], keys: false });
  // The settings read before publishing: the closing time update_quiz set, in UTC.
  expect(steps.get_quiz_settings).toEqual({
    status: 'draft',
    question_count: TYPES.length,
    closes_at: '2099-01-01T00:00:00.000Z',
  });
  // One response: the score so far, the essay waiting for its grade.
  const maxScore = steps.response.max_score;
  expect(steps.response).toEqual({ score: SCORE, max_score: expect.any(Number), grading_status: 'pending' });
  expect(maxScore).toBeGreaterThan(SCORE);
  expect(steps.get_results).toEqual({
    summary: expect.objectContaining({
      response_count: 1,
      average_score: SCORE,
      average_percent: Math.round((SCORE / maxScore) * 1000) / 10,
      highest_score: SCORE,
      lowest_score: SCORE,
      max_score: maxScore,
      pending_count: 1,
      pending_grades: 1,
    }),
    responses: 1,
  });
  expect(steps.get_results_filtered).toEqual({
    matching: (SCORE / maxScore) * 100 < 50 ? 1 : 0,
    statistics: false,
  });
  expect(steps.get_answers_to_grade).toEqual({
    answers: [{ question_type: 'essay', student_text: ESSAY_TEXT, grade_state: 'pending' }],
  });
  // An assistant's grades are proposals: the teacher approves them on the web.
  expect(steps.grade_answers).toEqual({
    grades: [
      {
        answer_id: 'the essay',
        stored: 'proposed',
        points: pointsOf(PLAIN_GRADE!.levels),
        max_points: ESSAY_MAX,
        levels: PLAIN_GRADE!.levels,
        feedback: PLAIN_GRADE!.feedback,
      },
    ],
    warnings: null,
  });
  expect(steps.grade_answers_brief).toEqual({
    counts: { final: 0, proposed: 1, unchanged: 0 },
    grades: [{ answer_id: 'the essay', stored: 'proposed', points: pointsOf(BRIEF_GRADE!.levels) }],
  });
  expect(steps.called).toEqual(EVERY_TOOL);
  expect(steps.list_quizzes).toEqual({ titles: [`${fixture.title} (${label})`] });
  // Every question sent back with its id kept it.
  expect(steps.update_quiz.question_ids).toEqual(ids);
  expect(steps.update_quiz.texts).toEqual(QUESTIONS.map((question) => `${question.text} (edited)`));
  // The closing time sent without an offset, read in Tokyo, comes back in UTC and local time.
  expect(steps.update_quiz.times).toEqual([
    {
      field: 'closes_at',
      utc: '2099-01-01T00:00:00.000Z',
      local: '2099-01-01T09:00:00+09:00',
      time_zone: 'Asia/Tokyo',
    },
  ]);
  expect(steps.publish_quiz.status).toBe('published');
  expect(steps.get_quiz_links).toEqual({
    public_url: expect.stringContaining('/q/'),
    csv: expect.stringContaining(`/dashboard/quizzes/${quizId}/responses.csv?sig=`),
    preview: expect.stringContaining('/preview?sig='),
  });
  expect(steps.close_quiz).toEqual({ is_open: false });
  expect(steps.reopen_quiz).toEqual({
    is_open: true,
    closes_at: {
      utc: '2099-01-01T08:00:00.000Z',
      local: '2099-01-01T09:00:00+01:00',
      time_zone: 'Europe/Paris',
    },
  });
  expect(steps.duplicate_quiz).toEqual({ language: 'es', question_count: TYPES.length });
  expect(steps.delete_quiz).toMatchObject({
    quiz_id: quizId,
    deleted: true,
    deleted_questions: TYPES.length,
    deleted_responses: 1,
  });

  expect(before).toEqual({
    ownerId: user.id,
    status: 'published',
    title: `${fixture.title} (${label})`,
    questions: QUESTIONS.map((question, index) => ({
      id: ids[index],
      type: question.type,
      text: `${question.text} (edited)`,
      key: keyOf(question),
    })),
    responses: 1,
    // The brief grade replaced the plain one; a proposal changes no score until it is approved.
    essayAnswers: [
      {
        points: 0,
        gradeState: 'proposed',
        grade: {
          state: 'proposed',
          levels: BRIEF_GRADE!.levels,
          points: pointsOf(BRIEF_GRADE!.levels),
          feedback: BRIEF_GRADE!.feedback,
        },
      },
    ],
  });
}

/** The GIFT bank through import_questions: the dry run stores nothing, the import what it previewed. */
async function expectImported(
  app: TestApp,
  steps: Record<string, any>,
  user: TestUser,
  label: string,
): Promise<void> {
  expect(steps.import_preview).toEqual({
    format: 'gift',
    importable: 15,
    not_importable: 1,
    quizzes: 0,
  });
  const [imported] = steps.import_questions.quizzes;
  expect(steps.import_questions.quizzes).toEqual([{ quiz_id: expect.any(String), question_count: 15 }]);
  const stored = await readQuiz(app, imported.quiz_id);
  expect(stored).toMatchObject({
    ownerId: user.id,
    status: 'draft',
    title: `Imported (${label})`,
  });
  expect(stored?.questions).toHaveLength(15);
  expect(await app.database.prisma.quiz.count({ where: { title: `Imported (${label})` } })).toBe(1);
}

describeWithTool('clients', 'the client matrix', () => {
  describeEachDatabase('the client matrix', (provider) => {
    let app: TestApp;
    let user: TestUser;

    beforeAll(async () => {
      app = await startTestApp({ provider, config: raisedLimits() });
      user = await createTestUser(app, 'matrix');
    });
    afterAll(async () => {
      await app?.close();
    });

    test('the quiz holds one question of each type, a yes_no whose right answer is "no", an essay with a rubric', () => {
      expect(TYPES).toEqual([...QUESTION_TYPES]);
      // The response answers both; its two grades give the essay different points.
      expect(RUBRIC.length).toBeGreaterThan(0);
      expect(response.answers.map((answer) => answer.type)).toEqual(['yes_no', 'essay']);
      expect(pointsOf(PLAIN_GRADE!.levels)).not.toBe(pointsOf(BRIEF_GRADE!.levels));
      expect(QUESTIONS[0]).toMatchObject({ type: 'yes_no', correct_answer: 'no' });
      expect(QUESTIONS.find((question) => question.type === 'short_text')?.accepted_answers).toEqual([
        'Lima',
      ]);
      expect(QUESTIONS.find((question) => question.type === 'number')?.tolerance).toBeGreaterThan(0);
    });

    test(
      `AI SDK, LangChain, Mastra and mcp-use each run a quiz's life cycle through their own tool wrappers`,
      async () => {
        const before = new Map<MatrixClient, DatabaseView | null>();
        const run = await runMatrix({
          mcpUrl: `${app.baseUrl}/api/mcp`,
          apiKey: user.apiKey,
          fixture: FIXTURE,
          response: RESPONSE,
          gift: GIFT_BANK,
          beforeDelete: async (client, quizId) => {
            before.set(client, await readQuiz(app, quizId));
          },
          timeoutMs: RUN_TIMEOUT_MS,
        });
        const failed = run.results.filter((result) => !result.ok);
        if (run.code !== 0 || failed.length > 0)
          process.stderr.write(`${JSON.stringify(failed, null, 2)}\n${run.stderr}`);
        expect(run.code).toBe(0);
        expect(run.results.map(({ client, ok, step }) => ({ client, ok, step }))).toEqual(
          MATRIX_CLIENTS.map((client) => ({ client, ok: true, step: undefined })),
        );
        for (const result of run.results) {
          // The service's per-type field error reaches the caller through the wrapper; nothing is made.
          expect(result.steps.refused_input).toEqual({
            refused: true,
            message: expect.stringContaining(
              'questions[0].options: a multiple_choice question needs at least 2 options (got 1)',
            ),
          });
          expect(
            await app.database.prisma.quiz.count({ where: { title: `Refused (${result.client})` } }),
          ).toBe(0);
          expectLifeCycle(result.steps, before.get(result.client) ?? undefined, user, result.client);
          // A framework wraps the tools its connection lists: the default list's through the plain
          // URL, the others through the one that adds their toolsets, with the same answers.
          expect(result.steps.through_toolsets).toEqual([
            'close_quiz',
            'duplicate_quiz',
            'get_answers_to_grade',
            'get_quiz_links',
            'grade_answers',
            'import_questions',
            'reopen_quiz',
          ]);
          expect(await readQuiz(app, result.steps.create_quiz.quiz_id)).toBeNull();
          expect(
            await app.database.prisma.question.count({ where: { quizId: result.steps.create_quiz.quiz_id } }),
          ).toBe(0);
          expect(
            await app.database.prisma.answer.count({ where: { quizId: result.steps.create_quiz.quiz_id } }),
          ).toBe(0);
          await expectImported(app, result.steps, user, result.client);
        }
      },
      RUN_TIMEOUT_MS + 30_000,
    );

    forEachEra(({ label, connect }) => {
      let client: AnyClient;
      beforeAll(async () => {
        client = await connect(app, user.apiKey);
      });
      afterAll(async () => {
        await client?.close();
      });

      test('the same life cycle through the SDK client', async () => {
        const called = new Set<string>();
        const call = async (name: string, args: Record<string, unknown>) => {
          called.add(name);
          return payload(await callTool(client, name, args));
        };
        const title = `${fixture.title} (${label})`;
        const created = await call('create_quiz', { ...fixture, title, questions: QUESTIONS });
        const steps: Record<string, any> = {
          create_quiz: {
            ...created,
            types: created.questions.map((question: { type: string }) => question.type),
          },
        };
        const quizId = created.quiz_id;
        steps.get_quiz_questions = await call('get_quiz_questions', { quiz_id: quizId });
        const first = steps.get_quiz_questions.questions[0];
        const edited = await call('edit_questions', {
          quiz_id: quizId,
          operations: [{ op: 'update', question_id: first.question_id, text: `${first.text} (draft)` }],
        });
        steps.edit_questions = {
          changes: edited.changes.map((change: { op: string; id: string }) => ({
            op: change.op,
            id: change.id,
          })),
        };
        const few = await call('get_quiz_questions', { quiz_id: quizId, from: 1, to: 2, view: 'respondent' });
        steps.few_questions = {
          positions: few.questions.map((q: { position: number }) => q.position),
          keys: few.questions.some(
            (q: object) => 'correct_answer' in q || 'points' in q || 'explanation' in q,
          ),
        };
        const updated = await call('update_quiz', {
          quiz_id: quizId,
          questions: QUESTIONS.map((question, index) => ({
            ...question,
            question_id: steps.get_quiz_questions.questions[index].question_id,
            text: `${question.text} (edited)`,
          })),
          settings: { closes_at: '2099-01-01T09:00' },
          timezone: 'Asia/Tokyo',
        });
        steps.update_quiz = {
          question_ids: updated.questions.map((question: { question_id: string }) => question.question_id),
          texts: updated.questions.map((question: { text: string }) => question.text),
          times: updated.times,
        };
        const settings = await call('get_quiz_settings', { quiz_id: quizId });
        steps.get_quiz_settings = {
          status: settings.status,
          question_count: settings.question_count,
          closes_at: settings.closes_at,
        };
        steps.publish_quiz = await call('publish_quiz', { quiz_id: quizId });
        const submitted = await respond(app, created.slug);
        steps.response = {
          score: submitted.score,
          max_score: submitted.max_score,
          grading_status: submitted.grading_status,
        };
        const results = await call('get_results', { quiz_id: quizId });
        steps.get_results = { summary: results.summary, responses: results.responses.length };
        const filtered = await call('get_results', {
          quiz_id: quizId,
          score_below: 50,
          order: 'score_asc',
          fields: ['percent'],
          include_statistics: false,
        });
        steps.get_results_filtered = {
          matching: filtered.matching.count,
          statistics: 'questions' in filtered,
        };
        // The SDK clients call every tool on the default list's connection: tools/call takes any.
        const waiting = await call('get_answers_to_grade', { quiz_id: quizId });
        const typeOf = (questionId: string) =>
          steps.get_quiz_questions.questions.find(
            (q: { question_id: string }) => q.question_id === questionId,
          )?.type;
        steps.get_answers_to_grade = {
          answers: waiting.answers.map((answer: Record<string, any>) => ({
            question_type: typeOf(answer.question_id),
            student_text: answer.student_text,
            grade_state: answer.grade_state,
          })),
        };
        const essayId = waiting.answers[0].answer_id;
        const named = (grade: Record<string, any>): Record<string, any> => ({
          ...grade,
          answer_id: grade.answer_id === essayId ? 'the essay' : grade.answer_id,
        });
        const graded = await call('grade_answers', { grades: [{ answer_id: essayId, ...PLAIN_GRADE }] });
        steps.grade_answers = {
          grades: graded.grades.map((grade: Record<string, any>) => {
            const { answer_id, stored, points, max_points, levels, feedback } = named(grade);
            return { answer_id, stored, points, max_points, levels, feedback };
          }),
          warnings: graded.warnings ?? null,
        };
        const brief = await call('grade_answers', {
          grades: [{ answer_id: essayId, ...BRIEF_GRADE }],
          reply: 'brief',
        });
        steps.grade_answers_brief = { counts: brief.counts, grades: brief.grades.map(named) };
        const listed = await call('list_quizzes', { status: 'published', search: title });
        steps.list_quizzes = { titles: listed.quizzes.map((quiz: { title: string }) => quiz.title) };
        const links = await call('get_quiz_links', { quiz_id: quizId });
        steps.get_quiz_links = {
          public_url: links.public_url,
          csv: links.csv.url,
          preview: links.preview.url,
        };
        steps.close_quiz = { is_open: (await call('close_quiz', { quiz_id: quizId })).is_open };
        const reopened = await call('reopen_quiz', {
          quiz_id: quizId,
          until: '2099-01-01T09:00',
          timezone: 'Europe/Paris',
        });
        steps.reopen_quiz = { is_open: reopened.is_open, closes_at: reopened.closes_at };
        const copy = await call('duplicate_quiz', { quiz_id: quizId, language: 'es' });
        steps.duplicate_quiz = { language: copy.language, question_count: copy.question_count };
        await call('delete_quiz', { quiz_id: copy.quiz_id, confirm: true });
        const before = await readQuiz(app, quizId);
        steps.delete_quiz = await call('delete_quiz', { quiz_id: quizId, confirm: true });
        const bank = fs.readFileSync(GIFT_BANK, 'utf8');
        const preview = await call('import_questions', { text: bank, dry_run: true });
        steps.import_preview = {
          format: preview.format,
          importable: preview.importable,
          not_importable: preview.not_importable,
          quizzes: preview.quizzes.length,
        };
        const imported = await call('import_questions', {
          text: bank,
          title: `Imported (${label})`,
          skip_unusable: true,
        });
        steps.import_questions = {
          quizzes: imported.quizzes.map((quiz: { quiz_id: string; question_count: number }) => ({
            quiz_id: quiz.quiz_id,
            question_count: quiz.question_count,
          })),
        };
        steps.called = [...called].sort();
        expectLifeCycle(steps, before ?? undefined, user, label);
        expect(await readQuiz(app, quizId)).toBeNull();
        expect(await app.database.prisma.answer.count({ where: { quizId } })).toBe(0);
        await expectImported(app, steps, user, label);
      });
    });
  });
});

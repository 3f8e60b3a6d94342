// get_results over MCP against responses stored by submitResponse: a small data set with known
// statistics, results surviving an edit of the published quiz, keyset pagination over 250
// responses, and aggregates over thousands of rows. On SQLite and PostgreSQL.
import type { DomainDeps } from '../../src/domain/deps';
import { submitResponse, type SubmittedAnswer } from '../../src/domain/taking/submit-response';
import {
  createTestUser,
  describeEachDatabase,
  sampleQuestions,
  startTestApp,
  type TestApp,
} from '../helpers/test-app';
import { callTool, errorText, payload, type AnyClient, forEachEra } from '../helpers/mcp-clients';

const QUESTIONS = [
  { type: 'yes_no', text: 'Q1 yes earns 2', points: 2 },
  {
    type: 'multiple_choice',
    text: 'Q2 capital of Italy',
    options: [
      { label: 'Rome', score: 3 },
      { label: 'Milan', score: 0 },
      { label: 'Turin', score: -1 },
    ],
  },
  { type: 'yes_no', text: 'Q3 yes costs 1', points: -1 },
];

interface CreatedQuiz {
  quiz_id: string;
  slug: string;
  questions: Array<{ question_id: string }>;
}

describeEachDatabase('get_results', (provider) => {
  forEachEra((era) => {
    let app: TestApp;
    let client: AnyClient;
    let deps: DomainDeps;

    beforeAll(async () => {
      app = await startTestApp({ provider });
      // Bulk inserts below leave the client's pooled connection idle for seconds; with Node's default
      // 5 s keep-alive the server may close it just as the client reuses it (ECONNRESET). Outlast the test.
      app.server.keepAliveTimeout = 60_000;
      client = await era.connect(app, (await createTestUser(app, 'results')).apiKey);
      deps = app.deps;
    });
    afterAll(async () => {
      await client.close();
      await app.close();
    });

    async function publish(title: string, questions: unknown[], settings: Record<string, unknown> = {}) {
      const quiz = payload<CreatedQuiz>(
        await callTool(client, 'create_quiz', { title, questions, settings }),
      );
      payload(await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id }));
      return quiz;
    }

    /** `[q1, q2, q3]` with 'yes'/'no', an option index, or null for unanswered. */
    function answersFor(
      quiz: { questions: Array<{ question_id: string }> },
      picks: Array<string | number | null>,
    ): SubmittedAnswer[] {
      return picks.flatMap((pick, i): SubmittedAnswer[] => {
        const question_id = quiz.questions[i]!.question_id;
        if (pick === null) return [];
        return [
          typeof pick === 'number' ? { question_id, option_index: pick } : { question_id, answer: pick },
        ];
      });
    }

    test('a small data set: summary and per-question statistics are exactly right', async () => {
      const quiz = await publish('Known stats', QUESTIONS, {
        require_all_answers: false,
        pass_mark_percent: 50,
        collect_name: false,
      });
      const picks: Array<Array<string | number | null>> = [
        ['yes', 0, 'no'], // 5 of 5: 100%, pass
        ['no', 1, 'yes'], // -1: -20%
        ['yes', null, null], // 2: 40%
        [null, 2, 'no'], // -1: -20%
        ['yes', 0, 'yes'], // 4: 80%, pass
      ];
      for (const pick of picks) await submitResponse(deps, quiz.slug, { answers: answersFor(quiz, pick) });

      const results = payload(await callTool(client, 'get_results', { quiz_id: quiz.quiz_id }));
      expect(results.summary).toEqual({
        response_count: 5,
        average_score: 1.8,
        average_percent: 36,
        highest_score: 5,
        lowest_score: -1,
        max_score: 5,
        pass_mark_percent: 50,
        pass_count: 2,
        pass_rate: 0.4,
        pass_percent: 40,
        first_submitted_at: expect.any(String),
        last_submitted_at: expect.any(String),
        pending_count: 0,
      });
      const [q1, q2, q3] = quiz.questions.map((q: { question_id: string }) => q.question_id);
      // Item analysis has its own suite (tests/mcp/item-analysis.test.ts); here the counts.
      const withoutItemAnalysis = (questions: Array<Record<string, unknown>>) =>
        questions.map((question) => {
          const rest = { ...question };
          for (const key of ['facility', 'discrimination', 'top_shares', 'bottom_shares', 'flags'])
            delete rest[key];
          return rest;
        });
      expect(withoutItemAnalysis(results.questions)).toEqual([
        {
          question_id: q1,
          text: 'Q1 yes earns 2',
          type: 'yes_no',
          answered_count: 4,
          average_points: 1.2,
          yes_count: 3,
          no_count: 1,
          correct_answer: 'yes',
        },
        {
          question_id: q2,
          text: 'Q2 capital of Italy',
          type: 'multiple_choice',
          answered_count: 4,
          average_points: 1,
          options: [
            { label: 'Rome', score: 3, count: 2 },
            { label: 'Milan', score: 0, count: 1 },
            { label: 'Turin', score: -1, count: 1 },
          ],
        },
        {
          question_id: q3,
          text: 'Q3 yes costs 1',
          type: 'yes_no',
          answered_count: 4,
          average_points: -0.4,
          yes_count: 2,
          no_count: 2,
          correct_answer: 'yes',
        },
      ]);
      // Newest first, each with its own answers (unanswered ones included, as null).
      expect(results.responses.map((r: { score: number }) => r.score)).toEqual([4, -1, 2, -1, 5]);
      expect(results.responses[2].answers).toEqual([
        {
          question_id: q1,
          text: 'Q1 yes earns 2',
          answer: 'yes',
          option_index: null,
          points: 2,
          max_points: 2,
        },
        {
          question_id: q2,
          text: 'Q2 capital of Italy',
          answer: null,
          option_index: null,
          points: 0,
          max_points: 3,
        },
        {
          question_id: q3,
          text: 'Q3 yes costs 1',
          answer: null,
          option_index: null,
          points: 0,
          max_points: 0,
        },
      ]);
    });

    test('a published quiz without responses: empty statistics, no cursor', async () => {
      const quiz = await publish('Nobody yet', sampleQuestions(), { pass_mark_percent: 70 });
      const results = payload(await callTool(client, 'get_results', { quiz_id: quiz.slug }));
      expect(results.summary).toMatchObject({
        response_count: 0,
        average_score: null,
        pass_count: 0,
        pass_rate: null,
      });
      expect(results.questions.map((q: { answered_count: number }) => q.answered_count)).toEqual([0, 0]);
      expect(results).toMatchObject({ responses: [], next_cursor: null });
    });

    test('confirm_edit_published never rewrites past results', async () => {
      const quiz = await publish('Edited later', sampleQuestions(), { pass_mark_percent: 50 });
      const before = await submitResponse(deps, quiz.slug, {
        respondent: { name: 'Early' },
        answers: answersFor(quiz, ['yes', 0]),
      });
      expect(before).toMatchObject({ score: 5, max_score: 5, percent: 100, passed: true });

      payload(
        await callTool(client, 'update_quiz', {
          quiz_id: quiz.quiz_id,
          confirm_edit_published: true,
          questions: [{ type: 'yes_no', text: 'A brand new question', points: 10 }],
          settings: { pass_mark_percent: 90 },
        }),
      );
      const edited = payload(await callTool(client, 'get_quiz_questions', { quiz_id: quiz.quiz_id }));
      await submitResponse(deps, quiz.slug, {
        respondent: { name: 'Late' },
        answers: [{ question_id: edited.questions[0].question_id, answer: 'no' }],
      });

      const results = payload(await callTool(client, 'get_results', { quiz_id: quiz.quiz_id }));
      expect(results.summary).toMatchObject({
        response_count: 2,
        max_score: 10,
        highest_score: 5,
        lowest_score: 0,
        pass_count: 1,
      });
      const early = results.responses.find(
        (r: { response_id: string }) => r.response_id === before.response_id,
      );
      expect(early).toMatchObject({
        respondent: { name: 'Early', email: null },
        score: 5,
        max_score: 5,
        percent: 100,
        passed: true,
        quiz_version: 1,
        answers: [
          {
            question_id: quiz.questions[0]!.question_id,
            text: 'Is the sky blue?',
            answer: 'yes',
            option_index: null,
            points: 2,
            max_points: 2,
          },
          {
            question_id: quiz.questions[1]!.question_id,
            text: 'Capital of Italy?',
            answer: 'Rome',
            option_index: 0,
            points: 3,
            max_points: 3,
          },
        ],
      });
      expect(results.responses[0]).toMatchObject({
        respondent: { name: 'Late' },
        score: 0,
        max_score: 10,
        passed: false,
        quiz_version: 2,
      });
      // Statistics describe the questions as they are now: only the new response answered them.
      expect(results.questions).toEqual([
        expect.objectContaining({ text: 'A brand new question', answered_count: 1, no_count: 1 }),
      ]);
    });

    test('250 responses: pages of 100, newest first, no repeats, no gaps, stable while new ones arrive', async () => {
      const quiz = await publish('Many responses', sampleQuestions(), { collect_name: true });
      const ids: string[] = [];
      for (let i = 0; i < 250; i += 1) {
        const pick = i % 3 === 0 ? 'no' : 'yes';
        const submitted = await submitResponse(deps, quiz.slug, {
          respondent: { name: `R${i}` },
          answers: answersFor(quiz, [pick, i % 3]),
        });
        ids.push(submitted.response_id);
      }
      const seen: string[] = [];
      let cursor: string | undefined;
      const sizes: number[] = [];
      do {
        const page = payload(
          await callTool(client, 'get_results', {
            quiz_id: quiz.quiz_id,
            limit: 100,
            ...(cursor ? { cursor } : {}),
          }),
        );
        expect(page.summary.response_count).toBe(seen.length === 0 ? 250 : 251);
        sizes.push(page.responses.length);
        seen.push(...page.responses.map((r: { response_id: string }) => r.response_id));
        cursor = page.next_cursor ?? undefined;
        // A response arriving between pages belongs before the first page: later pages do not shift.
        if (sizes.length === 1)
          await submitResponse(deps, quiz.slug, {
            respondent: { name: 'Late' },
            answers: answersFor(quiz, ['yes', 0]),
          });
      } while (cursor);
      expect(sizes).toEqual([100, 100, 50]);
      expect(new Set(seen).size).toBe(250);
      expect(seen).toEqual([...ids].reverse());
      expect(errorText(await callTool(client, 'get_results', { quiz_id: quiz.quiz_id, limit: 101 }))).toMatch(
        /limit/,
      );
    });

    test('thousands of responses: aggregates come from the database and a page stays a page', async () => {
      const quiz = await publish('Thousands', sampleQuestions(), { pass_mark_percent: 50 });
      const [q1, q2] = quiz.questions.map((q) => q.question_id) as [string, string];
      const quizRow = await app.database.prisma.quiz.findUniqueOrThrow({ where: { id: quiz.quiz_id } });
      const total = 3000;
      const start = Date.now() - total * 1000;
      // Bulk rows shaped exactly like submitResponse's: response i answers "yes" when i is even, Rome always.
      const responses = Array.from({ length: total }, (_, i) => {
        const score = (i % 2 === 0 ? 2 : 0) + 3;
        return {
          id: `bulk${String(i).padStart(6, '0')}`,
          quizId: quiz.quiz_id,
          quizVersion: quizRow.version,
          score,
          maxScore: 5,
          percent: score * 20,
          passed: score * 20 >= 50,
          submittedAt: new Date(start + i * 1000),
        };
      });
      // In chunks, so that no single statement grows with the row count.
      for (let from = 0; from < total; from += 500) {
        const chunk = responses.slice(from, from + 500);
        await app.database.prisma.response.createMany({ data: chunk });
        await app.database.prisma.answer.createMany({
          data: chunk.flatMap((r, j) => {
            const yes = (from + j) % 2 === 0;
            return [
              {
                responseId: r.id,
                quizId: quiz.quiz_id,
                questionId: q1,
                position: 0,
                questionText: 'Is the sky blue?',
                type: 'yes_no',
                value: { choice: yes ? 'yes' : 'no' },
                statKey: yes ? 'yes' : 'no',
                points: yes ? 2 : 0,
                maxPoints: 2,
              },
              {
                responseId: r.id,
                quizId: quiz.quiz_id,
                questionId: q2,
                position: 1,
                questionText: 'Capital of Italy?',
                type: 'multiple_choice',
                value: { optionIndex: 0, label: 'Rome' },
                statKey: '0',
                points: 3,
                maxPoints: 3,
              },
            ];
          }),
        });
      }
      // Rows written behind the service's back: the operator rebuilds the figures from them.
      await app.database.repos.responses.recomputeFigures(quiz.quiz_id);
      const results = payload(await callTool(client, 'get_results', { quiz_id: quiz.quiz_id, limit: 20 }));
      expect(results.summary).toMatchObject({
        response_count: total,
        average_score: 4,
        average_percent: 80,
        highest_score: 5,
        lowest_score: 3,
        pass_count: total,
        pass_rate: 1,
      });
      expect(results.summary.last_submitted_at).toBe(new Date(start + (total - 1) * 1000).toISOString());
      expect(results.questions[0]).toMatchObject({
        answered_count: total,
        yes_count: total / 2,
        no_count: total / 2,
        average_points: 1,
      });
      expect(results.questions[1].options[0]).toEqual({ label: 'Rome', score: 3, count: total });
      expect(results.responses).toHaveLength(20);
      expect(results.responses[0].response_id).toBe(`bulk${String(total - 1).padStart(6, '0')}`);
    });

    test('a cursor that was never given out is refused with a message, not an internal error', async () => {
      const quiz = await publish('Cursor checks', sampleQuestions());
      const forged = Buffer.from(JSON.stringify([1e20, 'x'])).toString('base64url');
      for (const cursor of ['garbage', forged]) {
        expect(errorText(await callTool(client, 'get_results', { quiz_id: quiz.quiz_id, cursor }))).toMatch(
          /cursor: not a cursor/,
        );
      }
    });
  });
});

// How a quiz is taken, through the tools: each setting set by create_quiz and update_quiz,
// returned by get_quiz_settings with is_open; contradicting settings refused with a field error
// and nothing changed; a reopening whose closes_at has passed refused until a new one comes.
import {
  createTestUser,
  describeEachDatabase,
  sampleQuestions,
  startTestApp,
  type TestApp,
} from '../helpers/test-app';
import { callTool, errorText, payload, forEachEra, type AnyClient } from '../helpers/mcp-clients';

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

describeEachDatabase('taking settings over MCP', (provider) => {
  forEachEra((era) => {
    let app: TestApp;
    let client: AnyClient;

    beforeAll(async () => {
      app = await startTestApp({ provider });
      client = await era.connect(app, (await createTestUser(app)).apiKey);
    });
    afterAll(async () => {
      await client.close();
      await app.close();
    });

    test('defaults keep the quiz as it was; every setting round-trips; is_open follows the window', async () => {
      const plain = payload(
        await callTool(client, 'create_quiz', { title: 'Plain', questions: sampleQuestions() }),
      );
      const defaults = payload(await callTool(client, 'get_quiz_settings', { quiz_id: plain.quiz_id }));
      expect(defaults).toMatchObject({
        is_open: false, // a draft
        time_limit_minutes: null,
        opens_at: null,
        closes_at: null,
        shuffle_questions: false,
        shuffle_options: false,
        question_pool_size: null,
        max_attempts_per_email: null,
        language: 'en',
      });

      const opensAt = Date.now() + HOUR;
      const quiz = payload(
        await callTool(client, 'create_quiz', {
          title: 'Timed',
          questions: sampleQuestions(),
          settings: {
            time_limit_minutes: 20,
            opens_at: '2030-01-01T09:00:00+01:00',
            closes_at: '2030-01-01T10:00:00+01:00',
            shuffle_questions: true,
            shuffle_options: true,
            question_pool_size: 1,
            collect_email: true,
            max_attempts_per_email: 2,
            language: 'ar',
          },
        }),
      );
      await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id });
      const settings = payload(await callTool(client, 'get_quiz_settings', { quiz_id: quiz.quiz_id }));
      expect(settings).toMatchObject({
        is_open: false, // not yet open
        time_limit_minutes: 20,
        opens_at: '2030-01-01T08:00:00.000Z',
        closes_at: '2030-01-01T09:00:00.000Z',
        shuffle_questions: true,
        shuffle_options: true,
        question_pool_size: 1,
        max_attempts_per_email: 2,
        language: 'ar',
      });
      const moved = payload(
        await callTool(client, 'update_quiz', {
          quiz_id: quiz.quiz_id,
          confirm_edit_published: true,
          settings: { opens_at: iso(opensAt - 2 * HOUR), closes_at: null, time_limit_minutes: null },
        }),
      );
      expect(moved.quiz_id).toBe(quiz.quiz_id);
      const open = payload(await callTool(client, 'get_quiz_settings', { quiz_id: quiz.quiz_id }));
      expect(open).toMatchObject({ is_open: true, closes_at: null, time_limit_minutes: null });
      const listed = payload(await callTool(client, 'list_quizzes', {}));
      const byId = new Map(listed.quizzes.map((item: any) => [item.quiz_id, item.is_open]));
      expect(byId.get(quiz.quiz_id)).toBe(true);
      expect(byId.get(plain.quiz_id)).toBe(false);
    });

    test('conflicting or malformed settings are refused with field errors, nothing stored', async () => {
      const refused = async (settings: Record<string, unknown>, questions = sampleQuestions()) =>
        errorText(await callTool(client, 'create_quiz', { title: 'Refused', questions, settings }));
      expect(await refused({ question_pool_size: 3 })).toMatch(
        /settings\.question_pool_size: is 3 but the quiz has 2 questions/,
      );
      expect(await refused({ max_attempts_per_email: 1 })).toMatch(
        /settings\.max_attempts_per_email: needs collect_email: true/,
      );
      expect(await refused({ opens_at: '2030-01-01T10:00:00Z', closes_at: '2030-01-01T09:59:00Z' })).toMatch(
        /settings\.closes_at: must be after opens_at/,
      );
      // A time without an offset is read in the account's zone (settings-times-in-zone.test.ts); a day alone is not a time.
      expect(await refused({ opens_at: '2030-01-01' })).toMatch(
        /settings\.opens_at: opens_at needs a date and a time, such as 2026-03-01T09:00 \(read in timezone\)/,
      );
      expect(await refused({ time_limit_minutes: 601 })).toMatch(/time_limit_minutes must be at most 600/);
      expect(await refused({ language: 'it' })).toMatch(/language must be one of en, es, pt, fr, de, ar/);
      const listed = payload(await callTool(client, 'list_quizzes', {}));
      expect(listed.quizzes.map((item: any) => item.title)).not.toContain('Refused');

      // The same checks against the stored state on update: fewer questions than the pool.
      const quiz = payload(
        await callTool(client, 'create_quiz', {
          title: 'Pooled',
          questions: sampleQuestions(),
          settings: { question_pool_size: 2 },
        }),
      );
      const text = errorText(
        await callTool(client, 'update_quiz', {
          quiz_id: quiz.quiz_id,
          questions: sampleQuestions().slice(0, 1),
        }),
      );
      expect(text).toMatch(/settings\.question_pool_size: is 2 but the quiz has 1 question:/);
      const kept = payload(await callTool(client, 'get_quiz_questions', { quiz_id: quiz.quiz_id }));
      expect(kept.questions).toHaveLength(2);
    });

    test('reopening after closes_at needs a new closes_at, and the refusal says so', async () => {
      const quiz = payload(
        await callTool(client, 'create_quiz', {
          title: 'Closed by the clock',
          questions: sampleQuestions(),
          settings: { closes_at: iso(Date.now() - HOUR) },
        }),
      );
      await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id });
      const closed = payload(await callTool(client, 'get_quiz_settings', { quiz_id: quiz.quiz_id }));
      expect(closed).toMatchObject({ accepting_responses: true, is_open: false });
      const reopen = (settings: Record<string, unknown>) =>
        callTool(client, 'update_quiz', { quiz_id: quiz.quiz_id, confirm_edit_published: true, settings });
      expect(errorText(await reopen({ accepting_responses: true }))).toMatch(
        /settings\.closes_at: passed at .*send a new closes_at in the future/,
      );
      payload(await reopen({ accepting_responses: true, closes_at: iso(Date.now() + HOUR) }));
      const open = payload(await callTool(client, 'get_quiz_settings', { quiz_id: quiz.quiz_id }));
      expect(open.is_open).toBe(true);
    });
  });
});

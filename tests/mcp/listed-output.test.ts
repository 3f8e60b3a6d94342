// tools/list publishes lean output schemas (a tool's `listedOutput`): every answer the tools
// give must still satisfy them, in both eras, checked here with Ajv against the listed schema
// over a quiz's whole life (questions of each type, settings, a response, results, deletion).
import Ajv from 'ajv';
import { submitResponse } from '../../src/domain/taking/submit-response';
import { callTool, forEachEra, payload, type AnyClient } from '../helpers/mcp-clients';
import { createTestUser, sampleQuestions, startTestApp, type TestApp } from '../helpers/test-app';

describe('listed output schemas', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  forEachEra((era) => {
    let client: AnyClient;
    beforeAll(async () => {
      // Every tool, so that each one's listed schema is there to check its answers against.
      client = await era.connect(app, (await createTestUser(app, `listed-${era.era}`)).apiKey, {
        toolsets: 'all',
      });
    });
    afterAll(() => client.close());

    test('every answer of a quiz life cycle validates against its listed schema', async () => {
      const ajv = new Ajv({ strict: false });
      const { tools } = await client.listTools();
      const validators = new Map(tools.map((tool) => [tool.name, ajv.compile(tool.outputSchema!)]));
      const checked = new Set<string>();
      const call = async (name: string, args: Record<string, unknown>) => {
        const answer = payload(await callTool(client, name, args));
        const validate = validators.get(name)!;
        if (!validate(answer)) throw new Error(`${name}: ${ajv.errorsText(validate.errors)}`);
        checked.add(name);
        return answer;
      };

      const quiz = await call('create_quiz', {
        title: 'Listed shapes',
        description: 'About shapes.',
        questions: sampleQuestions().map((question) => ({ ...question, explanation: 'Because.' })),
        settings: { pass_mark_percent: 50 },
      });
      await call('update_quiz', {
        quiz_id: quiz.quiz_id,
        questions: [
          ...quiz.questions.map((q: { question_id: string }, i: number) => ({
            ...sampleQuestions()[i],
            question_id: q.question_id,
          })),
          { type: 'yes_no', text: 'Is it?', correct_answer: 'no' },
        ],
      });
      await call('edit_questions', {
        quiz_id: quiz.quiz_id,
        operations: [
          { op: 'update', question_id: quiz.questions[0].question_id, text: 'Is the sky blue today?' },
          { op: 'move', question_id: quiz.questions[1].question_id, position: 2 },
        ],
      });
      await call('get_quiz_questions', { quiz_id: quiz.slug });
      await call('get_quiz_settings', { quiz_id: quiz.title });
      await call('publish_quiz', { quiz_id: quiz.quiz_id });
      const { questions } = await call('get_quiz_questions', { quiz_id: quiz.quiz_id });
      await submitResponse(app.deps, quiz.slug, {
        respondent: { name: 'Resp' },
        answers: [
          { question_id: questions[0].question_id, answer: 'yes' },
          { question_id: questions[1].question_id, option_index: 0 },
          { question_id: questions[2].question_id, answer: 'no' },
        ],
      });
      const results = await call('get_results', { quiz_id: quiz.quiz_id });
      expect(results.responses).toHaveLength(1);
      const essays = await call('create_quiz', {
        title: 'Listed grading',
        questions: [{ type: 'essay', text: 'Why?', points: 2 }],
      });
      await call('publish_quiz', { quiz_id: essays.quiz_id });
      await submitResponse(app.deps, essays.slug, {
        respondent: { name: 'Writer' },
        answers: [{ question_id: essays.questions[0].question_id, text: 'Because.' }],
      });
      const toGrade = await call('get_answers_to_grade', { quiz_id: essays.quiz_id });
      await call('grade_answers', { grades: [{ answer_id: toGrade.answers[0].answer_id, points: 1 }] });
      await call('delete_quiz', { quiz_id: essays.quiz_id, confirm: true });
      await call('list_quizzes', {});
      await call('get_quiz_links', { quiz_id: quiz.quiz_id });
      await call('close_quiz', { quiz_id: quiz.quiz_id });
      await call('reopen_quiz', { quiz_id: quiz.quiz_id, until: '2099-01-01T09:00' });
      const copy = await call('duplicate_quiz', { quiz_id: quiz.quiz_id });
      const bank =
        '::Capital:: What is the capital of Peru? {=Lima ~Quito ~Bogota}\n\nThe Sun is a star. {T}\n';
      await call('import_questions', { text: bank, title: 'Imported shapes', dry_run: true });
      const imported = await call('import_questions', { text: bank, title: 'Imported shapes' });
      expect(imported.quizzes).toHaveLength(1);
      await call('delete_quiz', { quiz_id: imported.quizzes[0].quiz_id, confirm: true });
      await call('delete_quiz', { quiz_id: copy.quiz_id, confirm: true });
      await call('delete_quiz', { quiz_id: quiz.quiz_id, confirm: true });
      expect([...checked].sort()).toEqual(tools.map((tool) => tool.name).sort());
    });
  });
});

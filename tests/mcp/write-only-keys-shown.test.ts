// A credential holding quizzes:write alone may change a quiz but not read its key, so it must not
// be able to have respondents read the key for it either: a setting that shows the key and the
// explanations, sent for an existing quiz (a copy included), is refused and changes nothing; a
// copy it makes starts with the key hidden, and the copy's public link is not made of the title
// it cannot read. Through the SDK clients of both eras, then as an anonymous respondent would
// see it.
import request from 'supertest';
import { callTool, errorText, forEachEra, payload, type AnyClient } from '../helpers/mcp-clients';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { ownerAndWriter } from './write-only-clients';

const SECRETS = ['SECRET-WHY', 'SECRET-ACCEPTED', 'Rome'];

const keyedQuestions = () => [
  {
    type: 'yes_no',
    text: 'Is Milan the capital?',
    points: 2,
    correct_answer: 'no',
    explanation: 'SECRET-WHY',
  },
  { type: 'short_text', text: 'Which city is?', points: 3, accepted_answers: ['SECRET-ACCEPTED', 'Rome'] },
];

forEachEra((era) => {
  let app: TestApp;
  let owner: AnyClient;
  let writer: AnyClient;

  beforeAll(async () => {
    app = await startTestApp();
    ({ owner, writer } = await ownerAndWriter(app, era, 'keys-shown'));
  });
  afterAll(async () => {
    await writer?.close();
    await owner?.close();
    await app?.close();
  });

  async function ownersQuiz(settings: Record<string, unknown> = {}) {
    return payload(
      await callTool(owner, 'create_quiz', {
        title: 'SECRET-TITLE quiz',
        questions: keyedQuestions(),
        settings,
      }),
    );
  }

  const settingsOf = async (quizId: string) =>
    payload(await callTool(owner, 'get_quiz_settings', { quiz_id: quizId }));

  /** What an anonymous respondent gets back from submitting the published quiz. */
  async function submitted(quizId: string) {
    const published = payload(await callTool(writer, 'publish_quiz', { quiz_id: quizId }));
    const questions = payload(await callTool(owner, 'get_quiz_questions', { quiz_id: quizId })).questions;
    const sent = await request(app.app)
      .post(`/api/quizzes/${published.slug}/responses`)
      .send({
        respondent: { name: 'Ann' },
        answers: [
          { question_id: questions[0].question_id, answer: 'yes' },
          { question_id: questions[1].question_id, text: 'Milan' },
        ],
      });
    expect(sent.status).toBe(201);
    return sent.body;
  }

  test('duplicate_quiz then show_correct_answers: refused with what to do, and respondents see no key', async () => {
    const quiz = await ownersQuiz();
    const copied = await callTool(writer, 'duplicate_quiz', { quiz_id: quiz.quiz_id });
    const copy = payload(copied);
    // The public link would carry the title: it is made of neutral words instead.
    expect(copy.slug).toMatch(/^quiz-copy-[a-z0-9]{6}$/);
    expect(JSON.stringify(copied.content).toLowerCase()).not.toContain('secret');

    for (const shown of ['after_submit', 'after_close']) {
      const refused = await callTool(writer, 'update_quiz', {
        quiz_id: copy.quiz_id,
        settings: { show_correct_answers: shown, collect_email: true },
      });
      expect(refused.isError).toBe(true);
      expect(errorText(refused)).toContain('quizzes:read');
      expect(errorText(refused)).toContain('Nothing was changed');
      expect(errorText(refused)).toMatch(/Leave show_correct_answers out \(or send "never"\)/);
    }
    // Nothing of the refused calls was stored, not even the setting sent beside it.
    expect(await settingsOf(copy.quiz_id)).toMatchObject({
      show_correct_answers: 'never',
      collect_email: false,
    });

    const body = await submitted(copy.quiz_id);
    expect(body.review).toBeNull();
    for (const secret of SECRETS) expect(JSON.stringify(body)).not.toContain(secret);
  });

  test('a copy of a quiz that shows its key starts with the key hidden, and says so', async () => {
    const quiz = await ownersQuiz({ show_correct_answers: 'after_submit' });
    const copy = payload(await callTool(writer, 'duplicate_quiz', { quiz_id: quiz.quiz_id }));
    expect(copy.warnings).toContainEqual({
      code: 'answer_key_hidden',
      question_id: null,
      field: 'settings.show_correct_answers',
      message:
        'the copy never shows respondents the answer key: only the owner, or a credential with quizzes:read, may turn it on',
    });
    expect((await settingsOf(copy.quiz_id)).show_correct_answers).toBe('never');
    const body = await submitted(copy.quiz_id);
    expect(body.review).toBeNull();
    for (const secret of SECRETS) expect(JSON.stringify(body)).not.toContain(secret);
    // The original keeps its setting.
    expect((await settingsOf(quiz.quiz_id)).show_correct_answers).toBe('after_submit');
  });

  test('the original itself: refused too; "never" and other settings still go through', async () => {
    const quiz = await ownersQuiz();
    const refused = await callTool(writer, 'update_quiz', {
      quiz_id: quiz.quiz_id,
      settings: { show_correct_answers: 'after_submit' },
    });
    expect(errorText(refused)).toContain('lacks the scope quizzes:read');
    expect((await settingsOf(quiz.quiz_id)).show_correct_answers).toBe('never');
    const changed = await callTool(writer, 'update_quiz', {
      quiz_id: quiz.quiz_id,
      settings: { show_correct_answers: 'never', collect_email: true },
    });
    expect(changed.isError).toBeFalsy();
    expect((await settingsOf(quiz.quiz_id)).collect_email).toBe(true);
  });

  test("a credential with quizzes:read keeps today's copy: the setting, a slug from the title", async () => {
    const quiz = await ownersQuiz({ show_correct_answers: 'after_submit' });
    const copy = payload(await callTool(owner, 'duplicate_quiz', { quiz_id: quiz.quiz_id }));
    expect(copy.slug).toMatch(/^secret-title-quiz-copy-[a-z0-9]{6}$/);
    expect(copy.warnings).toEqual([]);
    expect((await settingsOf(copy.quiz_id)).show_correct_answers).toBe('after_submit');
    const changed = await callTool(owner, 'update_quiz', {
      quiz_id: copy.quiz_id,
      settings: { show_correct_answers: 'after_close' },
    });
    expect(changed.isError).toBeFalsy();
    // A copy named by the write-only caller takes its slug from the name it chose.
    const named = payload(
      await callTool(writer, 'duplicate_quiz', { quiz_id: quiz.quiz_id, title: 'Week 2' }),
    );
    expect(named.slug).toMatch(/^week-2-[a-z0-9]{6}$/);
  });
});

// update_quiz tells what a replacement of the questions did that was probably not meant: the
// partial re-send of a question "as the model remembers it" (with its id, without explanation
// and points), an id from another quiz, every question removed. Each warning names the question
// and the field; the call still works as it always did.
import { createTestUser, describeEachDatabase, startTestApp, type TestApp } from '../helpers/test-app';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';

describeEachDatabase('update_quiz warnings', (provider) => {
  let app: TestApp;
  let client: AnyClient;

  beforeAll(async () => {
    app = await startTestApp({ provider });
    client = await connectClient(app, (await createTestUser(app, 'warned')).apiKey);
  });
  afterAll(async () => {
    await client.close();
    await app.close();
  });

  const call = async (tool: string, args: Record<string, unknown>) =>
    payload(await callTool(client, tool, args));

  test('the partial re-send: nothing lost silently, each warning names the question and the field', async () => {
    const quiz = await call('create_quiz', {
      title: 'Re-sent',
      questions: [
        { type: 'yes_no', text: 'Is Rome in Italy?', points: 3, explanation: 'It is the capital.' },
        { type: 'yes_no', text: 'Is Paris in Spain?', correct_answer: 'no' },
      ],
    });
    const [rome, paris] = quiz.questions;
    const other = await call('create_quiz', {
      title: 'Other',
      questions: [{ type: 'yes_no', text: 'Other?' }],
    });
    const answer = await call('update_quiz', {
      quiz_id: quiz.quiz_id,
      questions: [
        // As the model remembers it: the id, the type and the text, no explanation, no points.
        { question_id: rome.question_id, type: 'yes_no', text: 'Is Rome in Italy?' },
        { question_id: paris.question_id, type: 'yes_no', text: 'Is Paris in Spain?', correct_answer: 'no' },
        { question_id: other.questions[0].question_id, type: 'yes_no', text: 'Borrowed?' },
      ],
    });
    const [newRome, keptParis, borrowed] = answer.questions;
    expect(keptParis.question_id).toBe(paris.question_id);
    expect(newRome.question_id).not.toBe(rome.question_id);
    expect(borrowed.question_id).not.toBe(other.questions[0].question_id);
    expect(answer.warnings).toEqual([
      {
        code: 'field_reset',
        question_id: newRome.question_id,
        field: 'questions[0].explanation',
        message: expect.stringContaining('went from "It is the capital." to its default null'),
      },
      {
        code: 'field_reset',
        question_id: newRome.question_id,
        field: 'questions[0].points',
        message: expect.stringContaining('went from 3 to its default 1'),
      },
      {
        code: 'question_id_renewed',
        question_id: newRome.question_id,
        field: 'questions[0].question_id',
        message: expect.stringContaining('its statistics start over'),
      },
      {
        code: 'question_id_renewed',
        question_id: borrowed.question_id,
        field: 'questions[2].question_id',
        message: expect.stringContaining('is not a question of this quiz'),
      },
    ]);
  });

  test('a text-only re-send with every field warns of nothing; questions: [] on a draft says it removed them all', async () => {
    const quiz = await call('create_quiz', {
      title: 'Emptied',
      questions: [{ type: 'yes_no', text: 'Is it?', points: 2, explanation: 'Yes.' }],
    });
    const q = quiz.questions[0];
    const same = await call('update_quiz', {
      quiz_id: quiz.quiz_id,
      questions: [{ ...q, text: 'Is it so?' }],
    });
    expect(same.warnings).toEqual([]);
    expect(same.questions[0].question_id).toBe(q.question_id);
    const emptied = await call('update_quiz', { quiz_id: quiz.quiz_id, questions: [] });
    expect(emptied.question_count).toBe(0);
    expect(emptied.warnings).toEqual([
      {
        code: 'all_questions_removed',
        question_id: null,
        field: 'questions',
        message: expect.stringContaining('removed all 1 question;'),
      },
    ]);
  });
});

// A credential holding quizzes:write alone must not learn a key by guessing it: update_quiz and
// edit_questions answer it alike whether or not a key it sends equals the stored one. A question
// sent with a field of its key gets a new id either way, so its statistics start over; the owner's
// full-access key keeps the id while the key is unchanged, as before. Through the SDK clients of
// both eras.
import { callTool, forEachEra, payload, type AnyClient } from '../helpers/mcp-clients';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { ownerAndWriter } from './write-only-clients';

const twinQuestions = () => [
  { type: 'yes_no', text: 'Is Milan the capital?', points: 7, correct_answer: 'no', explanation: 'Rome is.' },
  {
    type: 'multiple_choice',
    text: 'Capital of Peru?',
    options: [
      { label: 'Cusco', score: 0 },
      { label: 'Lima', score: 3 },
    ],
  },
];

/** The answer with the quiz's own names and ids and the time replaced, so two quizzes' compare. */
function normalized(answer: Record<string, any>, quiz: Record<string, any>): unknown {
  const { updated_at: _at, ...rest } = answer;
  let text = JSON.stringify(rest);
  const ids = [
    quiz.quiz_id,
    quiz.slug,
    quiz.title,
    ...quiz.questions.map((q: any) => q.question_id),
    ...(answer.questions ?? []).map((q: any) => q.question_id),
    ...(answer.changes ?? []).map((c: any) => c.question_id),
  ];
  ids.forEach((id, n) => {
    if (typeof id === 'string') text = text.split(id).join(`<${n}>`);
  });
  return JSON.parse(text);
}

forEachEra((era) => {
  let app: TestApp;
  let owner: AnyClient;
  let writer: AnyClient;

  beforeAll(async () => {
    app = await startTestApp();
    ({ owner, writer } = await ownerAndWriter(app, era, 'same-answer'));
  });
  afterAll(async () => {
    await writer?.close();
    await owner?.close();
    await app?.close();
  });

  let twins = 0;
  /** Two quizzes alike but for their titles, made by the owner. */
  async function twinQuizzes(questions: ReadonlyArray<Record<string, unknown>> = twinQuestions()) {
    twins += 1;
    const make = async (name: string) =>
      payload(await callTool(owner, 'create_quiz', { title: `Twin ${twins} ${name}`, questions }));
    return [await make('A'), await make('B')] as const;
  }

  const storedIds = async (quizId: string) =>
    payload(await callTool(owner, 'get_quiz_questions', { quiz_id: quizId })).questions.map(
      (q: any) => q.question_id,
    );

  test('edit_questions: the stored key and a wrong guess get the same answer, and a new id', async () => {
    const [a, b] = await twinQuizzes();
    const edit = async (quiz: any, correct: string, points: number) =>
      payload(
        await callTool(writer, 'edit_questions', {
          quiz_id: quiz.quiz_id,
          operations: [
            { op: 'update', question_id: quiz.questions[0].question_id, correct_answer: correct, points },
          ],
        }),
      );
    const same = await edit(a, 'no', 7);
    const guess = await edit(b, 'yes', 8);
    expect(normalized(same, a)).toEqual(normalized(guess, b));
    expect(same.changes[0]).toMatchObject({
      op: 'update',
      id: 'renewed',
      previous_question_id: a.questions[0].question_id,
    });
    expect(same.version_raised).toBe(true);
    expect(same.warnings).toContainEqual({
      code: 'question_id_renewed',
      question_id: same.changes[0].question_id,
      field: 'operations[0]',
      message: `${a.questions[0].question_id} became ${same.changes[0].question_id}: a credential without quizzes:read that sends a key field always gets a new id, so its statistics start over.`,
    });
    // The question's id is new for the owner too: its statistics start over.
    const ids = await storedIds(a.quiz_id);
    expect(ids[0]).toBe(same.changes[0].question_id);
    expect(ids[0]).not.toBe(a.questions[0].question_id);
    expect(ids[1]).toBe(a.questions[1].question_id);

    // A text alone is no key: the id stays, and attempts in progress go on.
    const text = payload(
      await callTool(writer, 'edit_questions', {
        quiz_id: a.quiz_id,
        operations: [{ op: 'update', question_id: ids[1], text: 'Capital of Peru, again?' }],
      }),
    );
    expect(text.changes[0]).toMatchObject({ id: 'kept', question_id: ids[1] });
    expect(text.version_raised).toBe(false);
  });

  test('edit_questions with remark_past_responses: alike too', async () => {
    const [a, b] = await twinQuizzes();
    const edit = async (quiz: any, options: unknown) =>
      payload(
        await callTool(writer, 'edit_questions', {
          quiz_id: quiz.quiz_id,
          remark_past_responses: true,
          operations: [{ op: 'update', question_id: quiz.questions[1].question_id, options }],
        }),
      );
    const same = await edit(a, twinQuestions()[1]!.options);
    const guess = await edit(b, [
      { label: 'Cusco', score: 3 },
      { label: 'Lima', score: 0 },
    ]);
    expect(normalized(same, a)).toEqual(normalized(guess, b));
    expect(same.changes[0].id).toBe('renewed');
  });

  test('update_quiz: the stored key and a wrong guess get the same answer, and new ids', async () => {
    const [a, b] = await twinQuizzes();
    const update = async (quiz: any, correct: string) =>
      payload(
        await callTool(writer, 'update_quiz', {
          quiz_id: quiz.quiz_id,
          questions: [
            { ...twinQuestions()[0], correct_answer: correct, question_id: quiz.questions[0].question_id },
            { ...twinQuestions()[1], question_id: quiz.questions[1].question_id },
          ],
        }),
      );
    const same = await update(a, 'no');
    const guess = await update(b, 'yes');
    expect(normalized(same, a)).toEqual(normalized(guess, b));
    expect(same.warnings.map((w: any) => [w.code, w.field])).toEqual([
      ['question_id_renewed', 'questions[0].question_id'],
      // Left out, so reported: whether it held one or not is not for this credential to learn.
      ['field_reset', 'questions[1].explanation'],
      ['question_id_renewed', 'questions[1].question_id'],
    ]);
    const ids = await storedIds(a.quiz_id);
    expect(ids).toEqual(same.questions.map((q: any) => q.question_id));
    for (const [n, id] of ids.entries()) expect(id).not.toBe(a.questions[n].question_id);
  });

  test('update_quiz: a field left out is reported whether or not it held its default', async () => {
    const [a] = await twinQuizzes();
    const [b] = await twinQuizzes([
      { type: 'yes_no', text: 'Is Milan the capital?', points: 1, correct_answer: 'yes' },
      twinQuestions()[1]!,
    ]);
    const update = async (quiz: any) =>
      payload(
        await callTool(writer, 'update_quiz', {
          quiz_id: quiz.quiz_id,
          questions: [
            { type: 'yes_no', text: 'Is Milan the capital?', question_id: quiz.questions[0].question_id },
          ],
        }),
      );
    const held = await update(a);
    const defaults = await update(b);
    expect(normalized(held, a)).toEqual(normalized(defaults, b));
    expect(held.warnings.filter((w: any) => w.code === 'field_reset').map((w: any) => w.field)).toEqual(
      expect.arrayContaining([
        'questions[0].points',
        'questions[0].correct_answer',
        'questions[0].explanation',
      ]),
    );
  });

  test('a credential with quizzes:read keeps the id while the key is unchanged, as before', async () => {
    const [a] = await twinQuizzes();
    const kept = payload(
      await callTool(owner, 'edit_questions', {
        quiz_id: a.quiz_id,
        operations: [
          { op: 'update', question_id: a.questions[0].question_id, correct_answer: 'no', points: 7 },
        ],
      }),
    );
    expect(kept.changes[0]).toMatchObject({ id: 'kept', question_id: a.questions[0].question_id });
    expect(kept.version_raised).toBe(false);
    expect(kept.warnings).toEqual([]);
    const replaced = payload(
      await callTool(owner, 'update_quiz', {
        quiz_id: a.quiz_id,
        questions: [
          { ...twinQuestions()[0], question_id: a.questions[0].question_id },
          { ...twinQuestions()[1], question_id: a.questions[1].question_id },
        ],
      }),
    );
    expect(replaced.questions.map((q: any) => q.question_id)).toEqual(
      a.questions.map((q: any) => q.question_id),
    );
    expect(replaced.warnings).toEqual([]);
  });
});

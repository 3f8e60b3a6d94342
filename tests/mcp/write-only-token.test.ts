// What a credential holding quizzes:write alone (an OAuth token approved for "create, change,
// publish and delete", not "see") learns, through the SDK clients of both eras: every tool that
// changes something answers ids, status and what it did, in the text content and in
// structuredContent alike, and never the answer key, scores, explanations or another quiz's
// title, not even inside a warning. Resources, prompts and completions give such a token nothing.
import { callTool, errorText, forEachEra, payload, type AnyClient } from '../helpers/mcp-clients';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { ownerAndWriter } from './write-only-clients';

/** Stored content a write-only token must never read back. */
const SECRETS = ['SECRET-WHY', 'SECRET-ACCEPTED', 'SECRET-OPTION', '4242'];
const KEY_FIELDS = [
  'explanation',
  'points',
  'correct_answer',
  'options',
  'accepted_answers',
  'correct_number',
  'tolerance',
  'max_score',
];

const keyedQuestions = () => [
  { type: 'yes_no', text: 'Is the sky blue?', points: 7, correct_answer: 'no', explanation: 'SECRET-WHY 1' },
  {
    type: 'multiple_choice',
    text: 'Pick one',
    options: [
      { label: 'SECRET-OPTION right', score: 5 },
      { label: 'SECRET-OPTION wrong', score: 0 },
    ],
    explanation: 'SECRET-WHY 2',
  },
  { type: 'short_text', text: 'Capital?', points: 3, accepted_answers: ['SECRET-ACCEPTED'] },
  { type: 'number', text: 'How many?', points: 2, correct_number: 4242, tolerance: 1 },
];

/** Every key name found anywhere in a JSON value. */
function keysIn(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) keysIn(item, found);
  else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      found.add(key);
      keysIn(child, found);
    }
  }
  return found;
}

/** The answer, checked for leaks in its text content and its structuredContent. */
function withoutKey(result: Awaited<ReturnType<AnyClient['callTool']>>): Record<string, any> {
  const answer = payload(result);
  const text = JSON.stringify(result.content);
  for (const secret of SECRETS) expect(text).not.toContain(secret);
  for (const secret of SECRETS) expect(JSON.stringify(result.structuredContent)).not.toContain(secret);
  const keys = keysIn(answer);
  for (const field of KEY_FIELDS) expect(keys.has(field)).toBe(false);
  return answer;
}

forEachEra((era) => {
  let app: TestApp;
  let owner: AnyClient;
  let writer: AnyClient;

  beforeAll(async () => {
    app = await startTestApp();
    ({ owner, writer } = await ownerAndWriter(app, era, 'write-only'));
  });
  afterAll(async () => {
    await writer?.close();
    await owner?.close();
    await app?.close();
  });

  /** A quiz with every kind of key, made by the owner with full access; published if asked. */
  async function ownersQuiz(publish = false): Promise<{ quiz_id: string; questions: any[] }> {
    const quiz = payload(
      await callTool(owner, 'create_quiz', { title: 'SECRET-TITLE quiz', questions: keyedQuestions() }),
    );
    if (publish) payload(await callTool(owner, 'publish_quiz', { quiz_id: quiz.quiz_id }));
    return quiz as { quiz_id: string; questions: any[] };
  }

  test('update_quiz with nothing changed on a published quiz answers ids and status, not the key', async () => {
    const quiz = await ownersQuiz(true);
    const answer = withoutKey(
      await callTool(writer, 'update_quiz', {
        quiz_id: quiz.quiz_id,
        settings: { collect_name: true },
        confirm_edit_published: true,
      }),
    );
    expect(answer).toMatchObject({ quiz_id: quiz.quiz_id, status: 'published' });
    // What the output schema lists of a question, and what the view draws: id, type and text.
    expect(answer.questions).toEqual(
      quiz.questions.map((q: any) => ({ question_id: q.question_id, type: q.type, text: q.text })),
    );
    // The owner, with full access, still reads everything.
    const full = payload(await callTool(owner, 'get_quiz_questions', { quiz_id: quiz.quiz_id }));
    expect(JSON.stringify(full)).toContain('SECRET-ACCEPTED');
  });

  test('update_quiz: a warning about a field reset says where, not what it held', async () => {
    const quiz = await ownersQuiz();
    const [yesNo] = quiz.questions;
    const answer = withoutKey(
      await callTool(writer, 'update_quiz', {
        quiz_id: quiz.quiz_id,
        questions: [{ question_id: yesNo.question_id, type: 'yes_no', text: 'Is the sky blue?' }],
      }),
    );
    const resets = answer.warnings.filter((w: any) => w.code === 'field_reset');
    expect(resets.map((w: any) => w.field).sort()).toEqual(
      ['questions[0].correct_answer', 'questions[0].explanation', 'questions[0].points'].sort(),
    );
    for (const reset of resets) {
      expect(reset.message).toBe('was left out, so it went back to its default; send it to keep it');
      expect(reset.question_id).toEqual(expect.any(String));
    }
    expect(JSON.stringify(answer.warnings)).not.toMatch(/\b7\b|"no"/);
  });

  test('create_quiz and publish_quiz: ids, status and warnings by code and field, no scores', async () => {
    const created = withoutKey(
      await callTool(writer, 'create_quiz', {
        title: 'Written blind',
        questions: [
          ...keyedQuestions(),
          {
            type: 'multiple_choice',
            text: 'Survey',
            options: [
              { label: 'A', score: 0 },
              { label: 'B', score: 0 },
            ],
          },
        ],
      }),
    );
    expect(created).toMatchObject({ title: 'Written blind', status: 'draft' });
    expect(created.questions).toHaveLength(5);
    for (const q of created.questions) expect(Object.keys(q).sort()).toEqual(['question_id', 'text', 'type']);
    expect(created.warnings).toEqual([
      {
        code: 'no_points_possible',
        question_id: created.questions[4].question_id,
        field: 'questions[4].options',
        message: 'nobody can earn points here as it stands; check the scores or points sent',
      },
    ]);
    const published = withoutKey(await callTool(writer, 'publish_quiz', { quiz_id: created.quiz_id }));
    expect(published).toMatchObject({ quiz_id: created.quiz_id, status: 'published' });
    expect(published.public_url).toMatch(/\/q\//);
    expect(published.warnings.map((w: any) => w.code)).toEqual(['no_points_possible']);
  });

  test('edit_questions: the summary without max_score, its warnings without values', async () => {
    const quiz = await ownersQuiz();
    const choice = quiz.questions[1];
    const answer = withoutKey(
      await callTool(writer, 'edit_questions', {
        quiz_id: quiz.quiz_id,
        operations: [
          { op: 'update', question_id: choice.question_id, text: 'Pick one, again' },
          { op: 'add', type: 'yes_no', text: 'Zero?', points: 0 },
        ],
      }),
    );
    expect(answer).toMatchObject({ quiz_id: quiz.quiz_id, question_count: 5, version_raised: true });
    expect(answer.changes.map((c: any) => c.op)).toEqual(['update', 'add']);
    expect(answer.warnings).toEqual([
      expect.objectContaining({ code: 'no_points_possible', field: 'operations[1].points' }),
    ]);
    expect(answer.warnings[0].message).not.toMatch(/points is not above 0/);
  });

  test('close_quiz, reopen_quiz, duplicate_quiz and delete_quiz answer ids and status only', async () => {
    const quiz = await ownersQuiz(true);
    const closed = withoutKey(await callTool(writer, 'close_quiz', { quiz_id: quiz.quiz_id }));
    expect(closed).toMatchObject({ quiz_id: quiz.quiz_id, status: 'published', is_open: false });
    const reopened = withoutKey(await callTool(writer, 'reopen_quiz', { quiz_id: quiz.quiz_id }));
    expect(reopened).toMatchObject({ quiz_id: quiz.quiz_id, is_open: true });

    // The copy's title comes from the original's: neither is shown.
    const copied = await callTool(writer, 'duplicate_quiz', { quiz_id: quiz.quiz_id });
    expect(JSON.stringify(copied.content)).not.toContain('SECRET-TITLE');
    const copy = withoutKey(copied);
    expect(copy).toMatchObject({ status: 'draft', title: '', question_count: 4 });
    expect(copy.duplicated_from).toEqual({ quiz_id: quiz.quiz_id, title: '' });

    const refused = await callTool(writer, 'delete_quiz', { quiz_id: copy.quiz_id });
    expect(errorText(refused)).toMatch(/confirm: true/);
    const deleted = withoutKey(
      await callTool(writer, 'delete_quiz', { quiz_id: copy.quiz_id, confirm: true }),
    );
    expect(deleted).toMatchObject({ quiz_id: copy.quiz_id, deleted: true, deleted_questions: 4 });
  });

  test('no read tool, resource, prompt or completion gives the token a quiz', async () => {
    const quiz = await ownersQuiz();
    await expect(callTool(writer, 'get_quiz_questions', { quiz_id: quiz.quiz_id })).rejects.toThrow();
    await expect(writer.readResource(`quiz://${quiz.quiz_id}`)).rejects.toThrow();
    const { prompts } = await writer.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).not.toContain('review_quiz_before_publishing');
    await expect(
      writer.getPrompt('review_quiz_before_publishing', { quiz_id: quiz.quiz_id }),
    ).rejects.toThrow();
    const byPrompt = await writer.completePrompt('explain_results', 'quiz_id', 'SECRET');
    expect(byPrompt.completion.values).toEqual([]);
    const byResource = await writer.completeResource('quiz://{quiz_id}', 'quiz_id', 'SECRET');
    expect(byResource.completion.values).toEqual([]);
    // The same calls with the owner's key find it, so the empty answers above are the scope's.
    expect((await owner.completePrompt('explain_results', 'quiz_id', 'SECRET')).completion.values).toContain(
      'SECRET-TITLE quiz',
    );
  });
});

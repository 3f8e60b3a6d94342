// Grading by a person, through the domain over both databases: proposals change no score until
// approved; final without the owner's permission stays a proposal and says so; approval and the
// teacher's own grade make a response final, with its pass, its running figures equal to a
// recomputation, and one response.graded event each; overrides keep the points before and a
// re-marking leaves them; another owner's answers are "not found"; bad grades write nothing.
import request from 'supertest';
import { webhookWorkerOf } from '../../src/app';
import { createEndpoint } from '../../src/domain/webhooks/endpoints';
import { sealingKey } from '../../src/domain/webhooks/secrets';
import type { ResultRows } from '../../src/db/repositories';
import {
  answersToGrade,
  approveGrades,
  gradeAnswers,
  gradesOf,
  historyOf,
  overrideAnswer,
  setAssistantGradesFinal,
} from '../../src/domain/grading/grade-answers';
import { getResults } from '../../src/domain/reporting/get-results';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';
import {
  createTestUser,
  describeEachDatabase,
  startTestApp,
  type TestApp,
  type TestUser,
} from '../helpers/test-app';
import { startReceiver, type Receiver } from '../webhooks/receiver';

const ARGUMENT_ESSAY = {
  type: 'essay',
  text: 'Should homework be banned? Argue your case.',
  rubric: [
    {
      criterion: 'Thesis',
      levels: [
        { label: 'none', points: 0 },
        { label: 'vague', points: 1 },
        { label: 'clear', points: 2 },
      ],
    },
    {
      criterion: 'Evidence',
      levels: [
        { label: 'none', points: 0 },
        { label: 'some', points: 2 },
        { label: 'strong', points: 3 },
      ],
    },
  ],
};
const CAPITAL = { type: 'yes_no', text: 'Is Lima the capital of Peru?', points: 2, correct_answer: 'yes' };
const COMMENTS = { type: 'essay', text: 'Any comments on the unit?', points: 4 };
const ASSISTANT = { kind: 'assistant', client: 'Test Assistant' } as const;
const TEACHER = { kind: 'teacher' } as const;

/** The figures in one order, so a recomputation's rows compare equal. */
function sorted(rows: ResultRows) {
  const key = (row: object) => JSON.stringify(row);
  return {
    scores: [...rows.scores].sort((a, b) => (key(a) < key(b) ? -1 : 1)),
    items: [...rows.items].sort((a, b) => (key(a) < key(b) ? -1 : 1)),
    values: [...rows.values].sort((a, b) => (key(a) < key(b) ? -1 : 1)),
    ungraded: rows.ungraded,
  };
}

describeEachDatabase('grading answers', (provider) => {
  let app: TestApp;
  let owner: TestUser;
  let other: TestUser;
  let client: AnyClient;
  let receiver: Receiver;

  beforeAll(async () => {
    app = await startTestApp({
      provider,
      config: { webhooks: { allowLoopback: true, secretKey: undefined } },
    });
    owner = await createTestUser(app, 'grader');
    other = await createTestUser(app, 'stranger');
    client = await connectClient(app, owner.apiKey);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await client.close();
    await receiver.close();
    await app.close();
  });

  const call = async (tool: string, args: Record<string, unknown>) =>
    payload(await callTool(client, tool, args));

  /** A published quiz of two essays and a yes_no, taken by `count` respondents (yes for the even ones). */
  async function takenQuiz(title: string, count: number) {
    const quiz = await call('create_quiz', {
      title,
      questions: [ARGUMENT_ESSAY, CAPITAL, COMMENTS],
      settings: { pass_mark_percent: 50 },
    });
    await call('publish_quiz', { quiz_id: quiz.quiz_id });
    const [essayId, capitalId, commentsId] = quiz.questions.map(
      (q: { question_id: string }) => q.question_id,
    );
    for (let i = 0; i < count; i += 1) {
      await request(app.app)
        .post(`/api/quizzes/${quiz.slug}/responses`)
        .send({
          respondent: { name: `R${i}` },
          answers: [
            { question_id: essayId, text: `Homework builds lasting skills, says respondent ${i}.` },
            { question_id: capitalId, answer: i % 2 === 0 ? 'yes' : 'no' },
            { question_id: commentsId, text: `Comment number ${i}.` },
          ],
        })
        .expect(201);
    }
    return { quizId: quiz.quiz_id as string, essayId, capitalId, commentsId };
  }

  const figures = (quizId: string) => app.deps.repos.responses.figures(quizId);
  async function expectFiguresRecomputed(quizId: string) {
    const kept = sorted(await figures(quizId));
    expect(await app.deps.repos.responses.recomputeFigures(quizId)).toBe(1);
    expect(sorted(await figures(quizId))).toEqual(kept);
  }
  const responsesOf = (quizId: string) => app.deps.repos.responses.oldestFirst(quizId, 100);

  test('a proposal changes no score; final without permission stays a proposal and says so', async () => {
    const { quizId, essayId } = await takenQuiz('Proposals', 2);
    const before = sorted(await figures(quizId));
    const page = await answersToGrade(app.deps, owner.id, { ref: quizId, questionId: essayId });
    expect(page.answers).toHaveLength(2);
    expect(page.questions).toEqual([
      expect.objectContaining({
        question_id: essayId,
        position: 1,
        max_points: 5,
        rubric: ARGUMENT_ESSAY.rubric,
      }),
    ]);
    expect(page.answers[0]).toMatchObject({ grade_state: 'pending', proposal: null });
    expect(page.answers[0]!.student_text).toContain('respondent 0');

    const result = await gradeAnswers(app.deps, owner.id, {
      grades: page.answers.map((answer) => ({
        answerId: answer.answer_id,
        levels: [2, 1],
        feedback: 'Clear thesis.',
      })),
      final: true,
      by: ASSISTANT,
    });
    expect(result.grades.map((grade) => [grade.stored, grade.points])).toEqual([
      ['proposed', 4],
      ['proposed', 4],
    ]);
    expect(result.grades[0]!.note).toContain('has not allowed');
    expect(result.message).toContain('final was asked');
    expect(result.finalized_responses).toEqual([]);

    // No score moved: the responses and the figures are as they were.
    for (const response of await responsesOf(quizId)) {
      expect(response.gradingStatus).toBe('pending');
      expect(response.answers[0]).toMatchObject({ points: 0, gradeState: 'proposed' });
    }
    expect(sorted(await figures(quizId))).toEqual(before);
    const grades = await gradesOf(
      app.deps,
      page.answers.map((answer) => answer.answer_id),
    );
    expect(grades.get(page.answers[0]!.answer_id)).toMatchObject({
      state: 'proposed',
      levels: [2, 1],
      points: 4,
      feedback: 'Clear thesis.',
      graded_by: 'assistant:Test Assistant',
      approved_by: null,
    });
    const again = await answersToGrade(app.deps, owner.id, { ref: quizId, questionId: essayId });
    expect(again.answers[0]).toMatchObject({
      grade_state: 'proposed',
      proposal: { points: 4, levels: [2, 1] },
    });
    await expectFiguresRecomputed(quizId);
  });

  test('approval and the teacher final grade make responses final: pass, figures, one response.graded each', async () => {
    const { endpoint } = await createEndpoint(
      app.deps.repos,
      {
        sealingKey: sealingKey(app.config.webhooks.secretKey, app.config.sessionSecret),
        allowLoopback: true,
      },
      owner.id,
      { url: receiver.url, events: ['response.graded'], quizIds: null },
    );
    expect(endpoint.id).toBeTruthy();
    const { quizId, essayId, commentsId } = await takenQuiz('Approvals', 3);
    const essays = await answersToGrade(app.deps, owner.id, { ref: quizId, questionId: essayId });
    await gradeAnswers(app.deps, owner.id, {
      grades: essays.answers.map((answer, i) => ({ answerId: answer.answer_id, levels: [i, i] })),
      by: ASSISTANT,
    });
    const approved = await approveGrades(app.deps, owner.id, { ref: quizId, questionId: essayId });
    expect(approved.approved.map((answer) => answer.points)).toEqual([0, 3, 5]);
    // The comments essay still waits: nothing final yet.
    expect(approved.finalized_responses).toEqual([]);
    await expectFiguresRecomputed(quizId);
    const partial = await getResults(app.deps, owner.id, { ref: quizId, limit: 0 });
    const essayStats = partial.questions.find((q) => q.question_id === essayId)!;
    const commentStats = partial.questions.find((q) => q.question_id === commentsId)!;
    // Final answers only: the approved essays are counted, the waiting ones left out and counted apart.
    expect(essayStats).toMatchObject({ answered_count: 3, pending_count: 0 });
    expect(commentStats).toMatchObject({ answered_count: 0, pending_count: 3, average_points: null });
    expect(partial.item_analysis.reliability.reason).toBe(
      '3 responses wait for a grade: alpha needs final scores.',
    );

    const comments = await answersToGrade(app.deps, owner.id, { ref: quizId, questionId: commentsId });
    const given = await gradeAnswers(app.deps, owner.id, {
      grades: comments.answers.map((answer) => ({
        answerId: answer.answer_id,
        points: 4,
        feedback: 'Thanks.',
      })),
      final: true,
      by: TEACHER,
    });
    expect(given.grades.every((grade) => grade.stored === 'final')).toBe(true);
    expect(given.finalized_responses).toHaveLength(3);
    const responses = await responsesOf(quizId);
    // Scores: essay 0/3/5 + yes_no 2/0/2 + comments 4, of 11; pass mark 50 %.
    expect(responses.map((r) => [r.gradingStatus, r.score, r.maxScore, r.passed])).toEqual([
      ['final', 6, 11, true],
      ['final', 7, 11, true],
      ['final', 11, 11, true],
    ]);
    await expectFiguresRecomputed(quizId);
    const summary = (await getResults(app.deps, owner.id, { ref: quizId, limit: 0 })).summary;
    expect(summary).toMatchObject({ pending_count: 0, pass_count: 3 });
    const history = await historyOf(app.deps, [comments.answers[0]!.answer_id]);
    expect(history.get(comments.answers[0]!.answer_id)).toEqual([
      expect.objectContaining({ kind: 'graded', points_before: 0, points_after: 4, by: 'teacher' }),
    ]);

    expect(await webhookWorkerOf(app.app).runOnce()).toBe(3);
    const graded = receiver.received.filter((r) => r.json.type === 'response.graded');
    expect(graded.map((r) => r.json.data.response_id).sort()).toEqual(responses.map((r) => r.id).sort());
    expect(graded[0]!.json.data).toMatchObject({ quiz: { quiz_id: quizId }, max_score: 11, passed: true });
  });

  test("with the owner's permission the assistant's final grades are final", async () => {
    const { quizId, essayId } = await takenQuiz('Permission', 1);
    await setAssistantGradesFinal(app.deps, owner.id, quizId, true);
    const [answer] = (await answersToGrade(app.deps, owner.id, { ref: quizId, questionId: essayId })).answers;
    const result = await gradeAnswers(app.deps, owner.id, {
      // [2, 1]: the second is no level's points, so the levels cannot be read as points.
      grades: [{ answerId: answer!.answer_id, levels: [2, 1] }],
      final: true,
      by: ASSISTANT,
    });
    expect(result.grades[0]).toMatchObject({ stored: 'final', points: 4 });
    expect(result.grades[0]!.note).toContain('allows final grades');
    const [response] = await responsesOf(quizId);
    expect(response!.answers[0]).toMatchObject({ points: 4, gradeState: 'final' });
    // 4 for the essay and 2 for the yes_no; the comments essay still waits.
    expect(response!).toMatchObject({ score: 6, gradingStatus: 'pending', passed: null });
    // The teacher's final grade stands against a later proposal.
    const later = await gradeAnswers(app.deps, owner.id, {
      grades: [{ answerId: answer!.answer_id, levels: [0, 0] }],
      by: ASSISTANT,
    });
    expect(later.grades[0]).toMatchObject({ stored: 'unchanged' });
    await expectFiguresRecomputed(quizId);
  });

  test('an override keeps the points before; a re-marking leaves it and says so', async () => {
    const { quizId, capitalId } = await takenQuiz('Overrides', 2);
    const [first, second] = await responsesOf(quizId);
    const wrong = second!.answers.find((answer) => answer.questionId === capitalId)!;
    expect(wrong.points).toBe(0);
    const overridden = await overrideAnswer(app.deps, owner.id, {
      ref: quizId,
      answerId: wrong.id,
      points: 2,
      comment: 'Accepted: the question was ambiguous.',
    });
    expect(overridden).toMatchObject({ points_before: 0, points: 2, max_points: 2 });
    expect(overridden.response).toMatchObject({ score: 2, grading_status: 'pending' });
    const history = await historyOf(app.deps, [wrong.id]);
    expect(history.get(wrong.id)).toEqual([
      expect.objectContaining({
        kind: 'overridden',
        points_before: 0,
        points_after: 2,
        comment: 'Accepted: the question was ambiguous.',
      }),
    ]);
    await expectFiguresRecomputed(quizId);

    // The key turns to "no": the first response's yes is re-marked, the override stays.
    const updated = await call('edit_questions', {
      quiz_id: quizId,
      confirm_edit_published: true,
      remark_past_responses: true,
      operations: [{ op: 'update', question_id: capitalId, correct_answer: 'no' }],
    });
    expect(updated.remarked_responses).toBe(1);
    expect(updated.overridden_kept).toBe(1);
    expect(updated.message).toContain('1 overridden answer was left as the owner set it.');
    const after = await responsesOf(quizId);
    expect(
      after.find((r) => r.id === first!.id)!.answers.find((a) => a.questionId === capitalId)!.points,
    ).toBe(0);
    expect(
      after.find((r) => r.id === second!.id)!.answers.find((a) => a.questionId === capitalId)!.points,
    ).toBe(2);
    await expectFiguresRecomputed(quizId);

    // Out of range: refused, nothing written.
    await expect(
      overrideAnswer(app.deps, owner.id, { ref: quizId, answerId: wrong.id, points: 3 }),
    ).rejects.toMatchObject({ code: 'invalid_input', message: expect.stringContaining('from 0 to 2') });
  });

  test("bad grades and another owner's answers are refused, nothing written", async () => {
    const { quizId, essayId, capitalId, commentsId } = await takenQuiz('Refusals', 1);
    const [response] = await responsesOf(quizId);
    const id = (questionId: string) => response!.answers.find((a) => a.questionId === questionId)!.id;
    const before = sorted(await figures(quizId));
    const refused = (grades: Parameters<typeof gradeAnswers>[2]['grades']) =>
      gradeAnswers(app.deps, owner.id, { grades, by: ASSISTANT });
    await expect(refused([{ answerId: id(essayId), levels: [1] }])).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining(
        'grades[0].levels: the rubric has 2 criteria: give 2 level indexes (got 1)',
      ),
    });
    await expect(
      refused([
        { answerId: id(commentsId), points: 4 },
        { answerId: id(essayId), levels: [1, 3] },
      ]),
    ).rejects.toMatchObject({
      message: expect.stringContaining('grades[1].levels[1]: "Evidence" has levels 0-2'),
    });
    await expect(refused([{ answerId: id(essayId), points: 2 }])).rejects.toMatchObject({
      message: expect.stringContaining('give levels'),
    });
    await expect(refused([{ answerId: id(commentsId), points: 5 }])).rejects.toMatchObject({
      message: expect.stringContaining('from 0 to 4'),
    });
    await expect(refused([{ answerId: id(capitalId), points: 1 }])).rejects.toMatchObject({
      message: expect.stringContaining("marked by its question's rule"),
    });
    await expect(refused([{ answerId: 'cnotananswer000000000000', points: 1 }])).rejects.toMatchObject({
      code: 'answer_not_found',
    });
    // Another owner sees none of it: the same "not found" as an id that never existed.
    const attempts = [
      () =>
        gradeAnswers(app.deps, other.id, { grades: [{ answerId: id(commentsId), points: 1 }], by: TEACHER }),
      () => overrideAnswer(app.deps, other.id, { ref: quizId, answerId: id(capitalId), points: 0 }),
      () => approveGrades(app.deps, other.id, { ref: quizId, answerIds: [id(essayId)] }),
      () => answersToGrade(app.deps, other.id, { ref: quizId }),
    ];
    for (const attempt of attempts)
      await expect(attempt()).rejects.toMatchObject({
        code: expect.stringMatching(/^(answer|quiz)_not_found$/),
      });
    expect(sorted(await figures(quizId))).toEqual(before);
    expect(
      (
        await gradesOf(
          app.deps,
          response!.answers.map((a) => a.id),
        )
      ).size,
    ).toBe(0);
  });
});

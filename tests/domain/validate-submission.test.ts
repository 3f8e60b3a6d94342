// Submission rules as pure checks against a quiz row: each setting, every field named, all
// problems reported at once.
import type { QuizWithQuestions } from '../../src/db/repositories';
import { validateSubmission, type SubmitResponseInput } from '../../src/domain/attempts/validate-submission';
import { issueQuestionId } from '../../src/domain/attempts/validate-submission';
import { DomainError } from '../../src/domain/errors';

function quizRow(settings: Partial<QuizWithQuestions> = {}): QuizWithQuestions {
  const now = new Date();
  return {
    id: 'quiz1',
    ownerId: 'owner1',
    title: 'Row quiz',
    titleKey: 'row quiz',
    slug: 'row-quiz',
    status: 'published',
    version: 1,
    publishedAt: now,
    createdAt: now,
    updatedAt: now,
    acceptingResponses: true,
    showScoreToRespondent: true,
    passMarkPercent: null,
    collectName: false,
    collectEmail: false,
    requireAllAnswers: true,
    description: null,
    showCorrectAnswers: 'never',
    allowEmbedding: false,
    mathDollars: false,
    timeLimitMinutes: null,
    opensAt: null,
    closesAt: null,
    shuffleQuestions: false,
    shuffleOptions: false,
    questionPoolSize: null,
    maxAttemptsPerEmail: null,
    language: 'en',
    assistantGradesFinal: false,
    questions: [
      {
        id: 'qa',
        quizId: 'quiz1',
        position: 0,
        type: 'yes_no',
        text: 'Is it?',
        explanation: null,
        key: { points: 2, correctAnswer: 'yes' },
      },
      {
        id: 'qb',
        quizId: 'quiz1',
        position: 1,
        type: 'multiple_choice',
        text: 'Which?',
        explanation: null,
        key: {
          options: [
            { id: 'o1', label: 'One', score: 1 },
            { id: 'o2', label: 'Two', score: 2 },
          ],
        },
      },
    ],
    ...settings,
  };
}

function issuesOf(quiz: QuizWithQuestions, input: SubmitResponseInput) {
  try {
    validateSubmission(quiz, input);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('invalid_input');
    return (error as DomainError).issues.map((issue) => ({
      field: issue.field,
      questionId: issueQuestionId(issue),
    }));
  }
  throw new Error('expected the submission to be refused');
}

const full = [
  { question_id: 'qa', answer: 'yes' },
  { question_id: 'qb', option_index: 1 },
];

describe('validateSubmission', () => {
  test('a complete, well-formed submission gives one choice per question', () => {
    const choices = validateSubmission(quizRow(), { answers: full });
    expect([...choices]).toEqual([
      ['qa', { choice: 'yes' }],
      ['qb', { optionIndex: 1 }],
    ]);
  });

  test('require_all_answers on: every unanswered question is named, with its question id', () => {
    expect(issuesOf(quizRow(), { answers: [] })).toEqual([
      { field: 'answers', questionId: 'qa' },
      { field: 'answers', questionId: 'qb' },
    ]);
  });

  test('require_all_answers off: questions may be skipped, but not all of them', () => {
    const quiz = quizRow({ requireAllAnswers: false });
    expect([...validateSubmission(quiz, { answers: [full[1]!] }).keys()]).toEqual(['qb']);
    expect(issuesOf(quiz, { answers: [] })).toEqual([{ field: 'answers', questionId: undefined }]);
  });

  test('all problems at once: wrong kinds, out of range, unknown, duplicate, missing', () => {
    const quiz = quizRow({ collectName: true });
    const issues = issuesOf(quiz, {
      answers: [
        { question_id: 'qa', answer: 'maybe' },
        { question_id: 'qb', option_index: 2 },
        { question_id: 'nope', answer: 'yes' },
        { question_id: 'qa', answer: 'no' },
      ],
    });
    expect(issues).toEqual([
      { field: 'respondent.name', questionId: undefined },
      { field: 'answers[0].answer', questionId: 'qa' },
      { field: 'answers[1].option_index', questionId: 'qb' },
      { field: 'answers[2].question_id', questionId: undefined },
      { field: 'answers[3].question_id', questionId: 'qa' },
    ]);
  });

  test('an option index that is not a whole number is refused', () => {
    for (const option_index of [Number.NaN, 0.5, -1]) {
      expect(issuesOf(quizRow(), { answers: [full[0]!, { question_id: 'qb', option_index }] })).toEqual([
        { field: 'answers[1].option_index', questionId: 'qb' },
      ]);
    }
  });

  test('collect_name / collect_email: required, bounded and (email) well-formed only when collected', () => {
    const both = quizRow({ collectName: true, collectEmail: true });
    expect(
      issuesOf(both, { respondent: { name: '  ', email: 'nope' }, answers: full }).map((i) => i.field),
    ).toEqual(['respondent.name', 'respondent.email']);
    expect(
      issuesOf(both, {
        respondent: { name: 'x'.repeat(201), email: `${'a'.repeat(250)}@b.co` },
        answers: full,
      }),
    ).toHaveLength(2);
    expect(() =>
      validateSubmission(both, { respondent: { name: ' Ada ', email: 'ada@example.com' }, answers: full }),
    ).not.toThrow();
    // Not collected: whatever is sent is not checked (and not stored, see submit-response).
    expect(() =>
      validateSubmission(quizRow(), { respondent: { name: 'x'.repeat(500), email: 'junk' }, answers: full }),
    ).not.toThrow();
  });

  test('the error message lists every field, so the MCP-style text form says what to fix', () => {
    try {
      validateSubmission(quizRow(), { answers: [{ question_id: 'qa', answer: 'yes' }] });
    } catch (error) {
      expect((error as Error).message).toMatch(
        /answers: question 2 \("Which\?", question_id qb\) needs an answer/,
      );
    }
  });
});

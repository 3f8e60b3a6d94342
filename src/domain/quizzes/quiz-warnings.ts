import type { QuestionRecord } from '../quiz-records';

/**
 * Things a quiz holds that are allowed but probably not meant: answered next to the quiz by
 * create_quiz, update_quiz and publish_quiz, and shown on the dashboard before publishing. Never
 * an error, since a survey question may score nothing on purpose.
 */
export interface QuizWarning {
  code: WarningCode;
  /** The question it is about. */
  question_id: string;
  /** Where to look, as an argument path: `questions[2].options`. */
  field: string;
  message: string;
}

export type WarningCode = 'no_points_possible';

/**
 * What an edit did that the caller may not have meant, answered by update_quiz and
 * edit_questions beside what the quiz holds: an id renewed (its statistics start over), a field
 * reset to its default because a question was sent without it, every question removed.
 */
export interface EditWarning {
  code: 'question_id_renewed' | 'field_reset' | 'all_questions_removed';
  /** The question it is about; null when it is about the whole quiz. */
  question_id: string | null;
  field: string;
  message: string;
}

type Found = Omit<QuizWarning, 'question_id'>;

const NO_POINTS = 'so nobody can earn points here';

/** One small rule per question type, keyed by type: what it finds in one question, fields relative to it. */
type QuestionRule<T extends QuestionRecord['type']> = (
  question: Extract<QuestionRecord, { type: T }>,
) => Found[];

const noPoints = (field: string, why: string): Found[] => [
  { code: 'no_points_possible', field, message: `${why}, ${NO_POINTS}` },
];

const pointsRule = (question: { points: number }): Found[] =>
  question.points > 0 ? [] : noPoints('points', 'points is not above 0');

const optionsRule = (question: { options: ReadonlyArray<{ score: number }> }): Found[] =>
  question.options.some((option) => option.score > 0) ? [] : noPoints('options', 'no option scores above 0');

export const QUESTION_WARNING_RULES: { [T in QuestionRecord['type']]: QuestionRule<T> } = {
  yes_no: pointsRule,
  number: pointsRule,
  multiple_choice: optionsRule,
  multiple_select: optionsRule,
  // Without accepted answers the question only collects text, on purpose.
  short_text: (question) =>
    question.accepted_answers.length === 0 || question.points > 0
      ? []
      : noPoints('points', 'accepted answers are set but points is not above 0'),
};

function questionWarnings(question: QuestionRecord): Found[] {
  const rule = QUESTION_WARNING_RULES[question.type] as QuestionRule<typeof question.type>;
  return rule(question);
}

/** Every warning of a quiz's questions, in question order. */
export function quizWarnings(questions: readonly QuestionRecord[]): QuizWarning[] {
  return questions.flatMap((question, index) =>
    questionWarnings(question).map((found) => ({
      code: found.code,
      question_id: question.question_id,
      field: `questions[${index}].${found.field}`,
      message: found.message,
    })),
  );
}

/** A written quiz's record with its warnings beside it. */
export function withWarnings<R extends { questions: QuestionRecord[] }>(
  record: R,
): R & { warnings: QuizWarning[] } {
  return { ...record, warnings: quizWarnings(record.questions) };
}

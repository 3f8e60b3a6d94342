import { definitionOf, type FoundWarning } from '../question-types';
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

export type WarningCode = FoundWarning['code'];

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

function questionWarnings(question: QuestionRecord): FoundWarning[] {
  // Each type's own rule (question-types/), from the typed fields of its record.
  return definitionOf(question.type).warnings(question);
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

import { definitionOf, type FoundWarning } from '../question-types';
import type { QuestionRecord } from '../quiz-records';
import { formulaProblems, type RichTextOptions } from '../rich-text';

/**
 * Things a quiz holds that are allowed but probably not meant: answered next to the quiz by
 * create_quiz, update_quiz, edit_questions and publish_quiz, and shown on the dashboard before
 * publishing. Never an error, since a survey question may score nothing on purpose, and a formula
 * that does not typeset is shown as written.
 */
export interface QuizWarning {
  code: WarningCode;
  /** The question it is about; null for the quiz's description. */
  question_id: string | null;
  /** Where to look, as an argument path: `questions[2].options`. */
  field: string;
  message: string;
}

export type WarningCode = FoundWarning['code'] | 'formula_not_typeset';

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

/** What the warnings need of the quiz beside its questions: its description and `math_dollars`. */
export interface QuizTexts {
  description: string | null;
  mathDollars: boolean;
}

type Found = { code: WarningCode; field: string; message: string };

function questionWarnings(question: QuestionRecord): FoundWarning[] {
  // Each type's own rule (question-types/), from the typed fields of its record.
  return definitionOf(question.type).warnings(question);
}

/** Each formula of `text` that does not typeset, at `field`. */
function formulaWarnings(field: string, text: string | null, options: RichTextOptions): Found[] {
  return formulaProblems(text, options).map((problem) => ({
    code: 'formula_not_typeset',
    field,
    message: `the formula ${problem.source} is shown as written, since it does not typeset: ${problem.error}`,
  }));
}

/** The texts of a question that are shown as rich text (domain/rich-text.ts), by field. */
function questionTexts(question: QuestionRecord): Array<[string, string | null]> {
  const options = 'options' in question ? question.options : [];
  return [
    ['text', question.text],
    ...options.map((option, index): [string, string] => [`options[${index}].label`, option.label]),
    ['explanation', question.explanation],
  ];
}

/** Every warning of a quiz: its description's, then its questions' in question order. */
export function quizWarnings(questions: readonly QuestionRecord[], quiz: QuizTexts): QuizWarning[] {
  const options = { dollars: quiz.mathDollars };
  const description = formulaWarnings('description', quiz.description, options).map((found) => ({
    ...found,
    question_id: null,
  }));
  return [
    ...description,
    ...questions.flatMap((question, index) =>
      [
        ...questionWarnings(question),
        ...questionTexts(question).flatMap(([field, text]) => formulaWarnings(field, text, options)),
      ].map((found) => ({
        code: found.code,
        question_id: question.question_id,
        field: `questions[${index}].${found.field}`,
        message: found.message,
      })),
    ),
  ];
}

/** A written quiz's record with its warnings beside it. */
export function withWarnings<R extends { questions: QuestionRecord[] }>(
  record: R,
  quiz: QuizTexts,
): R & { warnings: QuizWarning[] } {
  return { ...record, warnings: quizWarnings(record.questions, quiz) };
}

import type { QuestionRow } from '../../db/repositories';
import type { QuestionInput } from '../quiz-input';
import { questionRecord } from '../quiz-records';
import type { EditWarning } from './quiz-warnings';
import { WRITE_ONLY_RENEWAL } from './write-only';

/** The fields a question sent with its id falls back on when left out, and what they fall back to. */
const DEFAULTS = {
  explanation: null,
  points: 1,
  correct_answer: 'yes',
  accepted_answers: [],
  tolerance: 0,
} as const;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * What a replacement of the questions (update_quiz) did that the caller may not have meant: a
 * question sent with its id but without a field it had, which went back to its default; an id
 * renewed, so its statistics start over; an id that is not the quiz's, taken as a new question;
 * every question removed. `storedIds` are the questions' ids after the edit, in the order sent.
 */
export function replaceWarnings(
  before: readonly QuestionRow[],
  incoming: readonly QuestionInput[],
  storedIds: readonly string[],
  /** False: the caller may not read the questions, so no warning depends on what they held. */
  mayRead = true,
): EditWarning[] {
  if (incoming.length === 0) {
    return before.length === 0
      ? []
      : [
          {
            code: 'all_questions_removed',
            question_id: null,
            field: 'questions',
            message: `an empty list removed all ${before.length} question${before.length === 1 ? '' : 's'}; to change a few, use edit_questions`,
          },
        ];
  }
  const byId = new Map(before.map((question) => [question.id, question]));
  return incoming.flatMap((input, index): EditWarning[] => {
    if (!input.question_id) return [];
    const at = `questions[${index}]`;
    const id = storedIds[index] ?? null;
    const previous = byId.get(input.question_id);
    if (!previous) {
      return [
        {
          code: 'question_id_renewed',
          question_id: id,
          field: `${at}.question_id`,
          message: `${input.question_id} is not a question of this quiz, so this was added as a new question`,
        },
      ];
    }
    const warnings: EditWarning[] = [];
    const had = questionRecord(previous) as unknown as Record<string, unknown>;
    if (previous.type === input.type) {
      for (const [field, fallback] of Object.entries(DEFAULTS)) {
        if (!(field in had) || (input as Record<string, unknown>)[field] !== undefined) continue;
        // Said whatever the field held for a caller that may not read it, so it tells nothing.
        if (mayRead && same(had[field], fallback)) continue;
        warnings.push({
          code: 'field_reset',
          question_id: id,
          field: `${at}.${field}`,
          message: `was left out, so it went from ${JSON.stringify(had[field])} to its default ${JSON.stringify(fallback)}; send it to keep it`,
        });
      }
    }
    if (id !== previous.id) {
      warnings.push({
        code: 'question_id_renewed',
        question_id: id,
        field: `${at}.question_id`,
        message: mayRead
          ? `${previous.id} became ${String(id)}: its type, answer key or scores changed, so its statistics start over`
          : `${previous.id} became ${String(id)}: ${WRITE_ONLY_RENEWAL}`,
      });
    }
    return warnings;
  });
}

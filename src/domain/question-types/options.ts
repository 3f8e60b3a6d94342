import type { QuestionRow } from '../../db/repositories';
import { LIMITS } from '../limits';
import type { QuestionFields, TypedField } from './definition';

/** What the two choice types share: options in display order, each with its score. */

export type ScoredOptions = ReadonlyArray<{ score: number }>;

export const optionsOf = (row: QuestionRow) => row.options;

export function checkOptionCount(
  input: QuestionFields,
  issue: (field: TypedField, message: string) => void,
): void {
  const count = input.options?.length ?? 0;
  if (count < LIMITS.optionsMin) {
    issue('options', `a ${input.type} question needs at least ${LIMITS.optionsMin} options (got ${count})`);
  }
}

export const optionColumns = (options: ReadonlyArray<{ label: string; score: number }>) => ({
  points: null,
  correctAnswer: null,
  acceptedAnswers: null,
  correctNumber: null,
  tolerance: null,
  options,
});

/** The choice types' fields as the tools return them. */
export interface OptionsRecord {
  options: Array<{ label: string; score: number }>;
}

export const optionsRecord = (row: QuestionRow): OptionsRecord => ({
  options: row.options.map((option) => ({ label: option.label, score: option.score })),
});

/** Answers name options by index, so they carry over only while the option count stays. */
export const sameOptionCount = (previous: ScoredOptions, next: ScoredOptions) =>
  previous.length === next.length;

/** Option order is part of the key: answers name options by index. */
export const optionsKey = (type: string, options: ScoredOptions) =>
  JSON.stringify([type, options.map((option) => option.score)]);

/** An option's index in the quiz's order, as a form sends it ("" or anything else: none). */
export const formIndex = (value: string) => (/^\d{1,3}$/.test(value) ? Number(value) : Number.NaN);

/** Each option's count key: its index in the quiz's order. */
export const optionKeys = (question: QuestionRow) => question.options.map((_, index) => String(index));

/** How the item analysis names an option: by its place in the quiz's order. */
export const optionLabel = (_key: string, index: number) => `option ${index + 1}`;

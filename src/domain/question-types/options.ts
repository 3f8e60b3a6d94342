import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { LIMITS } from '../limits';
import type { InputIssue, QuestionFields, StatisticsFigures } from './definition';

/** What the two choice types share: options in display order, each with its score. */

/**
 * An option as the key holds it: its score decides the marks; its label is what was shown, and
 * its id is given when it is first stored (toStored). A stored key always has both.
 */
export interface ChoiceOption {
  id?: string;
  label?: string;
  score: number;
}

export type ScoredOptions = ReadonlyArray<ChoiceOption>;

/** The choice types' stored key: the options in display order, each with its stable id. */
export const optionsKeySchema = z.object({
  options: z.array(z.object({ id: z.string(), label: z.string(), score: z.number() })),
});

/** The options as stored: each keeps its id, a new one gets one. */
export const storedOptions = (key: { options: ScoredOptions }) => ({
  options: key.options.map((option) => ({
    id: option.id ?? randomBytes(9).toString('base64url'),
    label: option.label ?? '',
    score: option.score,
  })),
});

export function checkOptionCount(input: QuestionFields, issue: InputIssue): void {
  const count = input.options?.length ?? 0;
  if (count < LIMITS.optionsMin) {
    issue(
      'options',
      `a ${input.type} question needs at least ${LIMITS.optionsMin} options (got ${count})`,
      'too_few',
      { min: LIMITS.optionsMin, got: count },
    );
  }
}

/** The choice types' bound in the API reference's limits, one entry for both. */
export const optionsLimit = { bound: `${LIMITS.optionsMin}-${LIMITS.optionsMax} options` } as const;

/** The choice types' fields as the tools return them. */
export interface OptionsRecord {
  options: Array<{ label: string; score: number }>;
}

export const optionsRecord = (key: { options: ScoredOptions }): OptionsRecord => ({
  options: key.options.map((option) => ({ label: option.label ?? '', score: option.score })),
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
export const optionKeys = (key: { options: ScoredOptions }) => key.options.map((_, index) => String(index));

/** The choice types' statistics: each option, in the quiz's order, with the answers that chose it. */
export const optionStatistics = (key: { options: ScoredOptions }, figures: StatisticsFigures) => ({
  options: key.options.map((option, index) => ({
    label: option.label ?? '',
    score: option.score,
    count: figures.count(String(index)),
  })),
});

/** How the item analysis names an option: by its place in the quiz's order. */
export const optionLabel = (_key: string, index: number) => `option ${index + 1}`;

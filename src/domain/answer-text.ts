/**
 * How typed answers are read: the text a respondent types for a `short_text` question, and the
 * number for a `number` question. Pure, so that scoring, re-marking and the review page agree.
 */

/** Longest typed answer kept, in characters. */
export const TEXT_ANSWER_MAX = 500;

/**
 * The form two texts are compared in: Unicode NFC (a composed `é` and `e` + combining accent are
 * one letter), lower case, trimmed, inner runs of white space made one space. Accents count:
 * "Peru" is not "Perú". NFC again after lower-casing, since lower-casing can decompose (`İ`).
 */
export function comparableText(text: string): string {
  return text.normalize('NFC').toLowerCase().normalize('NFC').trim().replace(/\s+/gu, ' ');
}

/** Whether a typed answer matches one of the accepted answers, as comparableText reads them. */
export function matchesAcceptedAnswer(answer: string, accepted: readonly string[]): boolean {
  const wanted = comparableText(answer);
  return accepted.some((candidate) => comparableText(candidate) === wanted);
}

/** The largest magnitude a number answer or key may have: beyond it, decimals are not exact. */
export const NUMBER_MAGNITUDE_MAX = 1e12;

export type ParsedNumber = { value: number } | { error: string };

const DECIMAL = /^[+-]?(?:\d+(?:[.,]\d*)?|[.,]\d+)$/;
const GROUPED = /^[+-]?\d{1,3}(?:[ ,.'\u00a0\u202f_]\d{3})+(?:[.,]\d+)?$/;

/**
 * A typed number: digits with at most one decimal separator, a point or a comma ("3,5" and
 * "3.5" are both 3.5), and an optional sign. Grouping separators are refused, with a message,
 * rather than guessed: "1,000.5" or "1 000" could be read two ways, and a wrong guess would
 * score the answer silently wrong.
 */
export function parseNumberAnswer(input: string): ParsedNumber {
  const text = input.trim();
  if (text === '') return { error: 'enter a number' };
  if (text.length > 40) return { error: 'a number of at most 40 characters' };
  if (!DECIMAL.test(text)) {
    if (GROUPED.test(text) || /\d[ ,.'\u00a0\u202f_]\d+[ ,.'\u00a0\u202f_]/.test(text)) {
      return {
        error: 'write the number without thousands separators, with one decimal point or comma (e.g. 1234.5)',
      };
    }
    return { error: 'enter a number, such as 42, -7 or 3.5 (a decimal comma works too: 3,5)' };
  }
  const value = Number(text.replace(',', '.'));
  if (!Number.isFinite(value) || Math.abs(value) > NUMBER_MAGNITUDE_MAX) {
    return { error: `a number between -${NUMBER_MAGNITUDE_MAX} and ${NUMBER_MAGNITUDE_MAX}` };
  }
  return { value: value === 0 ? 0 : value };
}

/**
 * Whether `answer` lies within `tolerance` of `correct`, bounds included. Binary fractions make
 * |0.4 - 0.3| a hair over 0.1, so the bound gets a margin far below any decimal a person types.
 */
export function withinTolerance(answer: number, correct: number, tolerance: number): boolean {
  const margin = 1e-9 * Math.max(1, Math.abs(answer), Math.abs(correct), tolerance);
  return Math.abs(answer - correct) <= tolerance + margin;
}

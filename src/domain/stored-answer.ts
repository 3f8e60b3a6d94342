import type { QuestionRow, StoredJson } from '../db/repositories';
import {
  NO_ANSWER,
  storedDefinition,
  toScorable,
  type AnswerColumns,
  type Choice,
  type DrawnValues,
  type StatKeys,
  type TypedAnswerValue,
} from './question-types';

/**
 * How an answer is kept in its row, and read back, by its question's type (question-types/).
 * Submission writes with `storedAnswer`; re-marking, results and the review read with
 * `choiceOf` and `answerText`, so every door agrees on what was answered. A stored value is
 * checked by its type's own schema when read.
 */

export { TICKED_LABELS_SEPARATOR } from './question-types';

/** An answer as its row holds it: its question's type and its stored value (null: unanswered). */
export interface StoredAnswerValue {
  type: string;
  value: unknown;
}

// Answer rows are read in pages and each value is read by several of the functions below.
// A value its type's module has just built is known to fit: storedAnswer enters it here, so the
// webhook event built from the same answers does not check each one again.
const values = new WeakMap<object, StoredJson>();

const UNANSWERED: { value: null } & StatKeys = { value: null, statKey: '', statValue: null, statNum: null };

/** What an answer row holds: the value in its type's shape, and the keys the running figures count it under. */
export function storedAnswer(
  question: QuestionRow,
  choice: Choice | undefined,
): { value: StoredJson | null } & StatKeys {
  if (!choice) return UNANSWERED;
  const definition = storedDefinition(question.type);
  const value = definition.storedAnswer(toScorable(question), choice);
  if (value === undefined) return UNANSWERED;
  values.set(value, value);
  // Built by the type's own module in its own shape (the compiler checks it): checked when read.
  return { value, ...definition.statKeys(value) };
}

/** The stored value checked by its type's schema; undefined when unanswered. */
function valueOf(answer: StoredAnswerValue): StoredJson | undefined {
  if (answer.value === null || answer.value === undefined) return undefined;
  if (typeof answer.value !== 'object') throw new Error(`A stored ${answer.type} answer is not an object`);
  let value = values.get(answer.value);
  if (!value) {
    const parsed = storedDefinition(answer.type).valueSchema.safeParse(answer.value);
    if (!parsed.success) {
      throw new Error(`A stored ${answer.type} answer does not fit its type`, { cause: parsed.error });
    }
    value = parsed.data;
    values.set(answer.value, value);
  }
  return value;
}

/** The values a stored answer was marked against, for a type that draws its own (null: none). */
export function drawnOf(answer: StoredAnswerValue): DrawnValues | null {
  const value = valueOf(answer);
  const drawing = storedDefinition(answer.type).drawing;
  return value === undefined || !drawing ? null : drawing.drawnOf(value);
}

/** What a stored answer chose, as scoring reads it; undefined when unanswered. */
export function choiceOf(answer: StoredAnswerValue): Choice | undefined {
  const value = valueOf(answer);
  return value === undefined ? undefined : storedDefinition(answer.type).choiceOf(value);
}

/**
 * The answer as one string, as results and exports show it: "yes"/"no", the chosen label, the
 * ticked labels joined ("" when none were ticked), the text typed, or the number as written.
 * Null when the question was left unanswered.
 */
export function answerText(answer: StoredAnswerValue): string | null {
  const value = valueOf(answer);
  return value === undefined ? null : storedDefinition(answer.type).answerText(value);
}

/**
 * An answer's cells in the CSV of responses: its text alone, or with `parts` (the question's
 * csvColumnsOf) one cell per part, its type reading them apart (a grid's rows).
 */
export function answerCells(answer: StoredAnswerValue, parts: number | null): Array<string | null> {
  const csv = storedDefinition(answer.type).csv;
  if (parts === null || !csv) return [answerText(answer)];
  const value = valueOf(answer);
  return value === undefined ? Array.from({ length: parts }, () => null) : csv.cells(value, parts);
}

/** The typed value get_results shows beside an answer's text. */
export function typedAnswerValue(answer: StoredAnswerValue): TypedAnswerValue {
  return storedDefinition(answer.type).typedValue(valueOf(answer));
}

/** The answer's fields as the response.submitted webhook has always carried them. */
export function answerColumns(answer: StoredAnswerValue): AnswerColumns {
  const value = valueOf(answer);
  return value === undefined ? NO_ANSWER : storedDefinition(answer.type).columns(value);
}

/** Whether a stored answer holds nothing (a tick list with none ticked is an answer). */
export const isUnanswered = (answer: StoredAnswerValue) =>
  answer.value === null || answer.value === undefined;

/**
 * The texts of a stored answer its question does not accept yet, each with its part (a blank's
 * index; null: the whole answer): what "Accept this answer" may add. Empty for a type without
 * accepted answers, an unanswered question, or an answer of another type than the question's.
 */
export function unacceptedTexts(
  question: QuestionRow,
  answer: StoredAnswerValue,
): Array<{ part: number | null; text: string }> {
  const definition = storedDefinition(question.type);
  const value = valueOf(answer);
  if (!definition.accepting || value === undefined || question.type !== answer.type) return [];
  return definition.accepting.unaccepted(toScorable(question), value);
}

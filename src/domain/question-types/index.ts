import type { QuestionRow } from '../../db/repositories';
import type { QuestionFields, QuestionTypeDefinition } from './definition';
import { calculated, type CalculatedQuestion, type CalculatedRecord } from './calculated';
import { fillInBlanks, type FillInBlanksQuestion, type FillInBlanksRecord } from './fill-in-blanks';
import { essay, type EssayQuestion, type EssayRecord } from './essay';
import { grid, type GridQuestion, type GridRecord } from './grid';
import { matching, type MatchingQuestion, type MatchingRecord } from './matching';
import { multipleChoice, type MultipleChoiceQuestion } from './multiple-choice';
import type { OptionsRecord } from './options';
import { multipleSelect, type MultipleSelectQuestion } from './multiple-select';
import { QUESTION_TYPES, type QuestionType } from './names';
import { numberType, type NumberQuestion, type NumberRecord } from './number';
import { ordering, type OrderingQuestion, type OrderingRecord } from './ordering';
import { scale, type ScaleQuestion, type ScaleRecord } from './scale';
import { shortText, type ShortTextQuestion, type ShortTextRecord } from './short-text';
import { yesNo, type YesNoQuestion, type YesNoRecord } from './yes-no';
import { calculatedFields } from './calculated/fields';
import { essayFields } from './essay/fields';
import { fillInBlanksFields } from './fill-in-blanks/fields';
import { gridFields } from './grid/fields';
import { matchingFields } from './matching/fields';
import { multipleChoiceFields } from './multiple-choice/fields';
import { multipleSelectFields } from './multiple-select/fields';
import { numberFields } from './number/fields';
import { orderingFields } from './ordering/fields';
import { scaleFields } from './scale/fields';
import { shortTextFields } from './short-text/fields';
import { yesNoFields } from './yes-no/fields';
import type { TypeFields } from './shared-fields';

export * from './definition';
export { QUESTION_TYPES, type QuestionType } from './names';
export { TICKED_LABELS_SEPARATOR } from './multiple-select';
export type { ChoiceOption } from './options';
export { blankFigures, blankMarkers, blankListName, BLANK_MARKER, type BlankFigure } from './fill-in-blanks';
export { positionFigures, type PositionFigure } from './ordering';
export { pairFigures, type PairFigure } from './matching';
export * from './opaque-ids';
export { scaleFigures, type ScaleFigures } from './scale';
export { gridFigures, type GridRowFigure } from './grid';
export { decimalsOf, FORMULA_LIMITS, VARIABLE_LIMITS } from './calculated';
export { essayMaximum, wordCount, type EssayCriterion, type EssayQuestion } from './essay';

/** A question as scoring reads it: its id, its type and its key. */
export type ScorableQuestion =
  | YesNoQuestion
  | MultipleChoiceQuestion
  | MultipleSelectQuestion
  | ShortTextQuestion
  | NumberQuestion
  | OrderingQuestion
  | FillInBlanksQuestion
  | MatchingQuestion
  | ScaleQuestion
  | EssayQuestion
  | GridQuestion
  | CalculatedQuestion;

/** Each type's fields as the tools return them, beside question_id, type, text and explanation. */
interface RecordFieldsByType {
  yes_no: YesNoRecord;
  multiple_choice: OptionsRecord;
  multiple_select: OptionsRecord;
  short_text: ShortTextRecord;
  number: NumberRecord;
  ordering: OrderingRecord;
  fill_in_blanks: FillInBlanksRecord;
  matching: MatchingRecord;
  scale: ScaleRecord;
  essay: EssayRecord;
  grid: GridRecord;
  calculated: CalculatedRecord;
}
type RecordFields<T extends QuestionType> = RecordFieldsByType[T];
type AnyRecordFields = RecordFieldsByType[QuestionType];

/** A question's typed fields with its type, as one union the records are built from. */
export type TypedRecord = { [T in QuestionType]: { type: T } & RecordFields<T> }[QuestionType];

/** A question's key without its id (what an edit compares before ids are chosen). */
export type QuestionKey = ScorableQuestion extends infer S
  ? S extends unknown
    ? Omit<S, 'id'>
    : never
  : never;

/**
 * Every type's definition, by name. The compiler holds it to the union: a name without its
 * module, or a module under another name, fails to build.
 */
const REGISTRY: {
  [T in QuestionType]: QuestionTypeDefinition<Extract<ScorableQuestion, { type: T }>, RecordFields<T>>;
} = {
  yes_no: yesNo,
  multiple_choice: multipleChoice,
  multiple_select: multipleSelect,
  short_text: shortText,
  number: numberType,
  ordering,
  fill_in_blanks: fillInBlanks,
  matching,
  scale,
  essay,
  grid,
  calculated,
};

/** The definitions in the order the tools describe them. */
export const QUESTION_TYPE_DEFINITIONS = QUESTION_TYPES.map((name) => REGISTRY[name]);

/**
 * Every type's schemas (its fields.ts), by name, held to the union as REGISTRY is. Kept apart
 * from the definitions so that each keeps its own zod types, which the merged schemas carry.
 */
const FIELDS = {
  yes_no: yesNoFields,
  multiple_choice: multipleChoiceFields,
  multiple_select: multipleSelectFields,
  short_text: shortTextFields,
  number: numberFields,
  ordering: orderingFields,
  fill_in_blanks: fillInBlanksFields,
  matching: matchingFields,
  scale: scaleFields,
  essay: essayFields,
  grid: gridFields,
  calculated: calculatedFields,
} satisfies { [T in QuestionType]: TypeFields<T> };

/**
 * One type's schemas, as a union over the types. Keyed by the table's own names, so that a type
 * missing from it fails here alone, not in every surface that reads the merged schemas.
 */
export type AnyTypeFields = (typeof FIELDS)[keyof typeof FIELDS];

/** The types' schemas in the definitions' order: what the surfaces merge (merge-fields.ts). */
export const QUESTION_TYPE_FIELDS: readonly AnyTypeFields[] = QUESTION_TYPES.map(
  (name) => FIELDS[name as keyof typeof FIELDS],
);

/**
 * The JSON answer fields, one per name: types that share a field (short_text and essay take
 * `text`) are named once, by the last of them, whose spec speaks for both.
 */
export const ANSWER_FIELD_SPECS = [
  ...new Map(
    QUESTION_TYPE_DEFINITIONS.map((definition) => [definition.answerField.name, definition.answerField]),
  ).values(),
];

export function isQuestionType(value: string): value is QuestionType {
  return (QUESTION_TYPES as readonly string[]).includes(value);
}

/**
 * The definition of a type, seen through the union of their keys: the one place where a key is
 * handed to the definition of its own type, which the compiler cannot correlate by itself.
 */
export function definitionOf(type: QuestionType): QuestionTypeDefinition<ScorableQuestion, AnyRecordFields> {
  return REGISTRY[type] as unknown as QuestionTypeDefinition<ScorableQuestion, AnyRecordFields>;
}

/**
 * The definition a stored row or answer names. Stored types were always one of the union; a row
 * written otherwise (by hand) reads as a multiple_choice question, as it always has.
 */
export function storedDefinition(type: string): QuestionTypeDefinition<ScorableQuestion, AnyRecordFields> {
  return definitionOf(storedTypeOf(type));
}

/** A stored type as the union names it (see storedDefinition). */
export function storedTypeOf(type: string): QuestionType {
  return isQuestionType(type) ? type : 'multiple_choice';
}

// Rows are read once and handed around (the SQLite snapshot cache keeps them across requests):
// each is checked against its type's schema once. A key read again as the same object (SQLite's
// reads hand out one frozen object per stored text) is not checked again under another row.
const scorables = new WeakMap<QuestionRow, ScorableQuestion>();
const checkedKeys = new WeakMap<object, { type: QuestionType; key: object }>();

/**
 * A stored question's key, as every rule reads it: its stored JSON checked by its type's own
 * schema (the repositories hand it over as stored). A key that does not fit is an error, never
 * guessed at.
 */
export function toScorable(question: QuestionRow): ScorableQuestion {
  let scorable = scorables.get(question);
  if (!scorable) {
    const type = storedTypeOf(question.type);
    const stored = typeof question.key === 'object' && question.key !== null ? question.key : undefined;
    let checked = stored && checkedKeys.get(stored);
    if (checked?.type !== type) {
      const key = definitionOf(type).keySchema.safeParse(question.key);
      if (!key.success) {
        const problem = `The stored key of question ${question.id} (${question.type}) does not fit its type`;
        throw new Error(problem, { cause: key.error });
      }
      checked = { type, key: key.data };
      // Only a frozen key cannot change after its check.
      if (stored && Object.isFrozen(stored)) checkedKeys.set(stored, checked);
    }
    scorable = { ...checked.key, id: question.id, type } as ScorableQuestion;
    scorables.set(question, scorable);
  }
  return scorable;
}

/** A question's key as stored (questions.key): its type's shape, checked before it is written. */
export function storedKeyOf(key: QuestionKey): Readonly<Record<string, unknown>> {
  const definition = definitionOf(key.type);
  return definition.keySchema.parse(definition.toStored(key)) as Readonly<Record<string, unknown>>;
}

/**
 * Whether a question is an opinion, never marked (a scale, a grid without a key): it stays out
 * of the score, the item analysis and the reliability. Asked of the question, not its type.
 */
export function isUnscored(question: QuestionRow | ScorableQuestion): boolean {
  const scorable = 'quizId' in question ? toScorable(question) : question;
  return definitionOf(scorable.type).unscored?.(scorable) ?? false;
}

/**
 * isUnscored of a question as the tools return it (its record, as the dashboard's pages have
 * it): its key read back from its typed fields, so a type may say it per question.
 */
export function isUnscoredRecord(record: {
  readonly question_id: string;
  readonly type: QuestionType;
}): boolean {
  const key = definitionOf(record.type).fromInput(record as unknown as QuestionFields);
  return isUnscored({ ...key, id: record.question_id } as ScorableQuestion);
}

/** A question's own columns in the CSV of responses (a grid's rows); null: one column. */
export function csvColumnsOf(question: QuestionRow): string[] | null {
  return definitionOf(storedTypeOf(question.type)).csv?.columns(toScorable(question)) ?? null;
}

/** What a respondent is shown of a question besides its text and options (its type's own fields). */
export function respondentFieldsOf(question: QuestionRow): Record<string, unknown> {
  return definitionOf(storedTypeOf(question.type)).respondentFields?.(toScorable(question)) ?? {};
}

/** The options a question shows, in the quiz's order (none for the types without options). */
export function optionsOf(question: QuestionRow): ReadonlyArray<{ label: string; score: number }> {
  const scorable = toScorable(question);
  return 'options' in scorable
    ? scorable.options.map((option) => ({ label: option.label ?? '', score: option.score }))
    : [];
}

import type { z } from 'zod';
import type { StoredJson } from '../../db/repositories';
import type { FieldIssueCode } from '../errors';
import type { QuestionType } from './names';
import type { OpaqueListSpec, OpaqueLists } from './opaque-ids';

/**
 * What one question type must say about itself. Each type's module exports one object of this
 * shape and index.ts lists them; everything that differs between types is asked of it, so a
 * new type is a new module plus one entry in each surface's table (docs/architecture.md).
 */

/**
 * The per-type fields of the one flat question object the tools take (domain/quiz-input.ts), in
 * the order it lists them; each type's fields.ts gives the schemas of those it takes.
 */
export const TYPED_FIELDS = [
  'points',
  'correct_answer',
  'options',
  'accepted_answers',
  'correct_number',
  'tolerance',
  'items',
  'points_per_item',
  'blanks',
  'scale_min',
  'scale_max',
  'scale_labels',
  'rubric',
  'min_words',
  'max_words',
  'pairs',
  'extra_matches',
  'points_per_pair',
  'columns',
  'checkboxes',
  'right_columns',
  'formula',
  'variables',
  'tolerance_type',
] as const;
export type TypedField = (typeof TYPED_FIELDS)[number];

/** A rule's problem with one typed field: the English words, and the code and figures behind them. */
export type InputIssue = (
  field: TypedField,
  message: string,
  code: FieldIssueCode,
  params?: Readonly<Record<string, string | number>>,
) => void;

/** A question as the caller sent it, its fields already checked one by one by the flat schema. */
export interface QuestionFields {
  type: QuestionType;
  /** The question's text, for the types whose key is written into it (fill_in_blanks' markers). */
  text?: string | undefined;
  points?: number | undefined;
  correct_answer?: 'yes' | 'no' | undefined;
  options?: ReadonlyArray<{ label: string; score: number }> | undefined;
  accepted_answers?: readonly string[] | undefined;
  correct_number?: number | undefined;
  tolerance?: number | undefined;
  items?: ReadonlyArray<{ label: string }> | undefined;
  points_per_item?: number | undefined;
  scale_min?: number | undefined;
  scale_max?: number | undefined;
  scale_labels?: readonly string[] | undefined;
  blanks?:
    | ReadonlyArray<{
        accepted_answers?: readonly string[] | undefined;
        options?: readonly string[] | undefined;
        correct_option?: number | undefined;
        points?: number | undefined;
      }>
    | undefined;
  rubric?:
    | ReadonlyArray<{ criterion: string; levels: ReadonlyArray<{ label: string; points: number }> }>
    | undefined;
  min_words?: number | undefined;
  max_words?: number | undefined;
  pairs?: ReadonlyArray<{ prompt: string; match: string }> | undefined;
  extra_matches?: ReadonlyArray<{ label: string }> | undefined;
  points_per_pair?: number | undefined;
  columns?: readonly string[] | undefined;
  checkboxes?: boolean | undefined;
  right_columns?: ReadonlyArray<readonly number[]> | undefined;
  formula?: string | undefined;
  variables?:
    | ReadonlyArray<{
        name: string;
        min: number;
        max: number;
        decimals?: number | undefined;
        step?: number | undefined;
        unit?: string | undefined;
      }>
    | undefined;
  tolerance_type?: 'absolute' | 'relative' | undefined;
}

/** Values one attempt drew for a question, by name (variables a formula is worked out from). */
export type DrawnValues = Readonly<Record<string, number>>;

/**
 * A type whose every respondent gets their own numbers: each attempt draws them (kept in the
 * attempt's layout, `v`), its text and its right answer follow them, and each answer keeps the
 * ones it was marked against. A quiz with such a question is taken through an attempt.
 */
export interface TypeDrawing<S, V> {
  /** A new draw for one attempt (or a preview). */
  draw(question: S): DrawnValues;
  /** The question's text as shown with a draw. */
  text(question: S, text: string, drawn: DrawnValues): string;
  /** The draw a stored answer was marked against (null: none kept). */
  drawnOf(value: V): DrawnValues | null;
  /** The answers a review shows as right for a draw. */
  rightAnswers(question: S, drawn: DrawnValues): string[];
}

/** One answer, in the form its question type takes. */
export type Choice =
  | { choice: 'yes' | 'no' }
  | { optionIndex: number }
  | { optionIndexes: readonly number[] }
  | { text: string }
  /**
   * `written`: the number as the respondent wrote it ("3,5"), kept for the record; `values`: the
   * values drawn for the respondent that it is marked against (DrawnValues), for the types that draw.
   */
  | { number: number; written?: string; values?: DrawnValues }
  /** Parts in the order chosen, by canonical index; `shown`: the order the attempt showed them in. */
  | { order: readonly number[]; shown?: readonly number[]; labels?: readonly string[] }
  /** A value picked on a scale. */
  | { value: number }
  /** Each blank in order: the text typed or the option chosen (canonical index, label then), or null. */
  | { blanks: ReadonlyArray<{ text: string } | { option: number; label?: string | undefined } | null> }
  /**
   * Per prompt in the quiz's order, the match chosen by its index (null: none). Read back from
   * storage it also has the prompts' and chosen matches' labels then, and the orders shown.
   */
  | {
      matches: ReadonlyArray<number | null>;
      prompts?: readonly string[];
      labels?: ReadonlyArray<string | null>;
      shownPairs?: { prompts: readonly number[]; matches: readonly number[] };
    }
  /** Per row of a grid, the columns chosen by index, ascending ([]: none). */
  | { cells: ReadonlyArray<readonly number[]> };

/**
 * An answer's fields as the response.submitted webhook has always carried them, one column per
 * field of the oldest types: each type fills its own from its stored value, the rest stay null.
 */
export interface AnswerColumns {
  choice: string | null;
  optionIndex: number | null;
  optionLabel: string | null;
  /** The ticked indexes as a JSON array ("[]": none ticked). */
  choices: string | null;
  text: string | null;
  number: number | null;
}

export const NO_ANSWER: AnswerColumns = {
  choice: null,
  optionIndex: null,
  optionLabel: null,
  choices: null,
  text: null,
  number: null,
};

/**
 * What the running figures count an answer under, written with it (db/result-aggregates.ts):
 * its key among the answers ("" unanswered; null for answers without a bounded set of values,
 * counted by their mark) and, for typed answers, its value (text) or number.
 */
export interface StatKeys {
  statKey: string | null;
  statValue: string | null;
  statNum: number | null;
}

/**
 * One answer as callers send it, in its question type's field: `answer` ("yes"/"no"),
 * `option_index` and `choices` (options named by their place in the quiz's order, whatever order
 * an attempt showed them in), `text`, `number` (a number, or a string such as "3,5"), `value` (a
 * whole number on a scale).
 */
export interface SubmittedAnswer {
  question_id: string;
  /** Typed loosely on purpose: a form sends any string, and the type's module says what is wrong with it. */
  answer?: string | undefined;
  option_index?: number | undefined;
  choices?: readonly number[] | undefined;
  text?: string | undefined;
  number?: number | string | undefined;
  /** Parts named by their opaque ids of the attempt (opaque-ids.ts), in the order chosen. */
  order?: readonly string[] | undefined;
  /** A whole number (a form sends it as a string). */
  value?: number | string | undefined;
  /** Per blank in order: the text typed, an opaque option id of the attempt, or null. */
  blanks?: ReadonlyArray<string | null> | undefined;
  /** Each prompt's opaque id of the attempt with a match's id, or null for none. */
  matches?: Readonly<Record<string, string | null>> | undefined;
  /** Per row of a grid: a column index, a list of them (checkboxes) or null. */
  rows?: ReadonlyArray<number | readonly number[] | null> | undefined;
}

/** The field of a submitted answer that carries its value. */
export type AnswerField = keyof Omit<SubmittedAnswer, 'question_id'>;

/** How the JSON door takes a type's answer: its field, checked alone, and its published schema. */
export interface AnswerFieldSpec {
  name: AnswerField;
  /** The field's own check, before the question is known (respondent/submit-json-response.ts). */
  schema: z.ZodType;
  /** How a refusal of "exactly one field" names it, e.g. `answer ("yes"/"no", yes_no)`. */
  help: string;
  /** Its item in /openapi.json's list of answers: the field's JSON Schema, and a description. */
  jsonSchema: Record<string, unknown>;
  description?: string;
}

/** What a type's answer parser found wrong: the submission field it concerns, and why. */
export interface AnswerProblem {
  field: AnswerField;
  message: string;
  /** For the doors that word it themselves (FieldIssue's code); "invalid" when absent. */
  code?: FieldIssueCode;
  params?: Readonly<Record<string, string | number>>;
}

/**
 * The typed value get_results shows beside an answer's text, named as in the submission; a typed
 * text is `text_answer`, since an answer's `text` has always been its question's text. The
 * oldest types carry none, which keeps their answers as small as before.
 */
export interface TypedAnswerValue {
  choices?: number[] | null;
  text_answer?: string | null;
  number?: number | null;
  /** The parts in the order chosen, by canonical index (0: the part that belongs first). */
  order?: number[] | null;
  value?: number | null;
  /** Per blank in order: the text typed or the option's label, null when left empty. */
  blanks?: Array<string | null> | null;
  /** Per pair in order, the match chosen (null: none). */
  matches?: Array<string | null> | null;
  /** Per row of a grid, the columns chosen by index ([]: none). */
  rows?: number[][] | null;
}

/** The keys a question's answers are counted under, for the choice counts and the item analysis. */
export interface AnalysisKeys {
  /** Each key a respondent can choose ("yes"/"no", option indexes). */
  keys: string[];
  /** Which of those are "right" in the item analysis. */
  right: Set<string>;
  /** How a flag names the key at `index` ("yes" in quotes, "option 2"). */
  label(key: string, index: number): string;
}

/**
 * A question's running figures as its type's statistics read them (results/question-statistics.ts
 * gathers them, the same for every type).
 */
export interface StatisticsFigures {
  /** The answers counted under a key (statKeys), 0 for a key never counted. */
  count(key: string): number;
  /** Every key counted, with its count. */
  readonly counts: ReadonlyMap<string, number>;
  /** The answers counted right; null when the question scores nothing, so none can be right. */
  readonly rightCount: number | null;
  /** Its most common stored values (commonAnswers), most common first; texts merged as compared. */
  readonly common: ReadonlyArray<{ value: string | number; count: number }>;
  /** Its answers waiting for a final grade, which the figures leave out. */
  readonly pending: number;
  /** A share as the statistics give it: two decimals. */
  round(share: number | null): number | null;
}

/** Something a question holds that is allowed but probably not meant (quizzes/quiz-warnings.ts). */
export interface FoundWarning {
  code: 'no_points_possible';
  /** The question's field it is about. */
  field: TypedField;
  message: string;
}

/**
 * How the API reference (docs/api-reference.ts) describes a type, in plain text with API names
 * between backticks (`points`), which the page shows as code.
 */
export interface TypeReference {
  /** The fields it takes, with their defaults. */
  readonly fields: string;
  /** How an answer is marked. */
  readonly marked: string;
  /** The answer's field in a submission, and what it holds. */
  readonly answer: string;
  /**
   * Its own bound in the limits: `bound` per question of the type ("2-20 options"), then `then`;
   * types with the same bound share one entry ("per multiple_choice or multiple_select question").
   */
  readonly limit?: { readonly bound: string; readonly then?: string };
}

/**
 * What a question in an import file asks for, in the importer's own terms (domain/import/): each
 * reader says which of these a source question is, and a type that takes one says so in its
 * definition (`importing`). A shape no type takes is read and listed as not held yet.
 */
export const IMPORT_SHAPES = [
  'truth',
  'one_choice',
  'many_choices',
  'text_answers',
  'numeric',
  'pairs',
  'sequence',
  'blanks',
  'open',
  'rating',
  'matrix',
  'formula',
] as const;
export type ImportShape = (typeof IMPORT_SHAPES)[number];

/**
 * Rows answered against shared columns: per row one column or, with `checkboxes`, any; `right`
 * per row its right columns by index (null: a survey), each row right worth `pointsPerRow`.
 */
export interface ImportedMatrix {
  readonly rows: readonly string[];
  readonly columns: readonly string[];
  readonly checkboxes: boolean;
  readonly right: ReadonlyArray<readonly number[]> | null;
  readonly pointsPerRow: number;
}

/** A source question's answers: each with its share of the question's grade in percent. */
export interface ImportedAnswers {
  readonly grade: number;
  readonly answers: ReadonlyArray<{
    readonly text: string;
    readonly fraction: number;
    readonly tolerance?: number;
  }>;
  /** A rating's lowest and highest values. */
  readonly range?: { readonly min: number; readonly max: number };
  /** Pairs to match: each prompt with its right match, and matches of no prompt (the grade is split evenly per pair). */
  readonly pairs?: ImportedPairs;
  /** Blanks of a text whose `[[n]]` markers are already written, in order. */
  readonly blanks?: readonly ImportedBlank[];
  /** An essay's own fields, as far as the format says them (its grade is its points). */
  readonly essay?: ImportedEssay;
  /** Rows against columns, their key and points (the grade is unused). */
  readonly matrix?: ImportedMatrix;
  /** A formula over variables drawn per attempt, with its tolerance. */
  readonly formula?: ImportedFormula;
}

/** A formula over variables drawn per attempt (each by decimals or by step, with an optional unit). */
export interface ImportedFormula {
  /** Over the variables by name (`{a}` already read as `a`). */
  readonly formula: string;
  readonly variables: ReadonlyArray<{
    readonly name: string;
    readonly min: number;
    readonly max: number;
    readonly decimals?: number | undefined;
    readonly step?: number | undefined;
    readonly unit?: string | undefined;
  }>;
  readonly tolerance: number;
  readonly toleranceType: 'absolute' | 'relative';
}

export interface ImportedPairs {
  readonly list: ReadonlyArray<{ readonly prompt: string; readonly match: string }>;
  readonly extra: readonly string[];
}

/**
 * One blank: typed (its answers are accepted ones, each with its share) or a choice list (its
 * answers are the options, the one with the highest share the right one), worth `grade` points.
 */
export interface ImportedBlank {
  readonly grade: number;
  readonly choice: boolean;
  readonly answers: ReadonlyArray<{ readonly text: string; readonly fraction: number }>;
}

export interface ImportedEssay {
  readonly minWords?: number | null;
  readonly maxWords?: number | null;
  /** Criteria with their levels' points (as points of the source, before the scoring rule). */
  readonly rubric?: ReadonlyArray<{
    readonly criterion: string;
    readonly levels: ReadonlyArray<{ readonly label: string; readonly points: number }>;
  }>;
}

/** How a type is made from an imported question. */
export interface TypeImport {
  readonly shape: ImportShape;
  /**
   * Its typed fields. `score` turns an exact number of points (grade × fraction / 100) into the
   * whole points the import's scoring rule gives it; `lose` names what the type cannot keep.
   */
  build(
    source: ImportedAnswers,
    score: (exact: number) => number,
    lose: (what: string) => void,
  ): Omit<QuestionFields, 'type'>;
}

/**
 * A question told in the importer's terms again, for the formats a quiz is exported to
 * (domain/import/): the shape it is, its answers as shares of its grade (the inverse of
 * `importing`), and what of it no shape says.
 */
export interface TypeExport {
  readonly shape: ImportShape;
  /** Its points for a full answer (1 for the option types, whose answers carry their own scores). */
  readonly grade: number;
  /** Options, accepted answers, the right number, or items in the right order. */
  readonly answers: ReadonlyArray<{
    readonly text: string;
    readonly fraction: number;
    readonly tolerance?: number;
  }>;
  /** A rating's lowest and highest values. */
  readonly range?: { readonly min: number; readonly max: number };
  /** Matching: its pairs and distractors; the grade is the whole question's. */
  readonly pairs?: ImportedPairs;
  /** Fill in the blanks: each blank's answers and points; the text has its `[[n]]` markers. */
  readonly blanks?: readonly ImportedBlank[];
  /** An essay: its word limits and rubric (the grade is its maximum); a format that cannot hold the rubric says so. */
  readonly essay?: ImportedEssay;
  /** A grid's rows, columns and key. */
  readonly matrix?: ImportedMatrix;
  /** A formula question: its formula, variables and tolerance, and the formula in Moodle's syntax. */
  readonly formula?: ImportedFormula & { readonly moodle: string };
  /** Its fields the shape cannot carry, each named for the export's notes. */
  readonly unsaid: readonly string[];
}

/**
 * `S` is the type's scorable shape: its id, its name and its key (what decides the marks),
 * read from the stored row once and passed to every rule below. `R` is its typed fields as the
 * tools return them. `V` is its answer as stored (a JSON object of its own shape).
 */
export interface QuestionTypeDefinition<
  S extends { id: string; type: QuestionType },
  R extends object = object,
  V extends StoredJson = StoredJson,
> {
  readonly name: S['type'];
  /** How the tools' `type` description names it, e.g. "multiple_choice (pick one option)". */
  readonly summary: string;
  /** Its section of the skill (mcp/skills/), under a heading of its name: what to send, and the traps. */
  readonly guide: readonly string[];
  /**
   * What its statistics in get_results hold, as the skill says it after the type's name ("count
   * each option"); types with the same words share one phrase.
   */
  readonly statisticsGuide: string;
  /** Offered as a style by the quiz_from_material prompt, with a tip on writing one from the material. */
  readonly fromMaterial?: { readonly tip?: string };
  /** How an import makes one (domain/import/); none: its shape is listed as not held yet. */
  readonly importing?: TypeImport;
  /** How an export tells it from its record (domain/import/); none: its questions are listed as left out. */
  readonly exporting?: (record: R) => TypeExport;
  /** Its row of the API reference's table of types, and its bound in the limits there. */
  readonly reference: TypeReference;
  /**
   * How it marks the right answer, with an example: said first when a question of this type is
   * sent another type's key (a multiple_choice with `correct_answer`) or options as strings.
   */
  readonly keyHint: string;
  /** The typed fields it takes; any other is refused by name. */
  readonly takes: readonly TypedField[];
  /**
   * Rules across its fields, beyond what each field's schema checks: each problem in English, with
   * its code and figures for the doors that word it themselves (the editor).
   */
  checkInput(input: QuestionFields, issue: InputIssue): void;
  /** Its key from what the caller sent, defaults filled. */
  fromInput(input: QuestionFields): Omit<S, 'id'>;
  /**
   * Its key as stored (questions.key), checked when read (storedKey in index.ts) and written:
   * the scorable shape without its id and type.
   */
  readonly keySchema: z.ZodType<Omit<S, 'id' | 'type'>>;
  /** Its key as stored, ids given to what needs them (options). */
  toStored(key: Omit<S, 'id'>): Omit<S, 'id' | 'type'>;
  /** The typed fields of its record, as the tools return them (and take them back). */
  record(key: S): R;
  /** The warnings of create_quiz, update_quiz and publish_quiz about one question, from its record. */
  warnings(record: R): FoundWarning[];
  /**
   * Whether a question of it is an opinion asked, never marked (a scale always, a grid without
   * a key): out of the score, the item analysis and the reliability, where a question that
   * merely scores 0 would still count. Absent: always marked. Asked through isUnscored (index.ts).
   */
  unscored?(key: Omit<S, 'id'>): boolean;
  /**
   * Marked by a person, never by a rule (essay): `points` gives 0, an answer waits for its grade
   * (domain/grading/grade-answers.ts), and a re-marking leaves its grade alone.
   */
  readonly gradedByHand?: true;
  /** The most it can earn. */
  maxPoints(key: Omit<S, 'id'>): number;
  /** What one answer earns (0 for an answer of another type's shape). */
  points(key: Omit<S, 'id'>, answer: Choice): number;
  /**
   * What decides its marks, as one string: two versions with equal keys score every possible
   * answer alike, so an edit that keeps it may keep the question's id and statistics.
   */
  answerKey(key: Omit<S, 'id'>): string;
  /** Whether answers given under `previous` can be marked again under `next` (same type already). */
  answersCarryOver(previous: S, next: Omit<S, 'id'>): boolean;
  /** Whether an attempt shows its options in an order of its own when the quiz shuffles options. */
  readonly shufflesOptions: boolean;
  /** Its answer's field in a JSON submission. */
  readonly answerField: AnswerFieldSpec;
  /**
   * The parts it shows under opaque ids of the attempt (opaque-ids.ts), by list name; absent
   * for a type whose answers name nothing by id. A quiz with such a question is taken through
   * an attempt, so the ids and the order shown are kept.
   */
  opaqueLists?(question: S): Record<string, OpaqueListSpec>;
  /**
   * A submitted answer read for this type: the answer, or what is wrong with it. `lists` holds
   * the attempt's opaque ids for the question, when its type has any (opaqueLists).
   */
  parseAnswer(
    question: S,
    answer: SubmittedAnswer,
    lists?: OpaqueLists,
    /** The values the attempt drew for the question, when its type draws (`drawing`). */
    drawn?: DrawnValues,
  ): Choice | AnswerProblem;
  /** Draws values for each attempt (TypeDrawing); absent for a type that shows everyone the same. */
  readonly drawing?: TypeDrawing<S, V>;
  /** A form's raw value (always a string) as a submitted answer. */
  formAnswer(value: string): Omit<SubmittedAnswer, 'question_id'>;
  /** Its stored answer (answers.value), checked when read (stored-answer.ts). */
  readonly valueSchema: z.ZodType<V>;
  /**
   * How an answer is stored: what it chose, and what it read as then (labels change later);
   * undefined for an answer of another type's shape (stored as unanswered).
   */
  storedAnswer(question: S, choice: Choice): V | undefined;
  /** What the running figures count a stored answer under. */
  statKeys(value: V): StatKeys;
  /** A stored answer read back, as scoring takes it. */
  choiceOf(value: V): Choice;
  /** The answer as one string for results and CSV (null: it shows as unanswered). */
  answerText(value: V): string | null;
  /** The typed value get_results shows beside the text; `undefined` when unanswered. */
  typedValue(value: V | undefined): TypedAnswerValue;
  /** Its fields as the response.submitted webhook carries them. */
  columns(value: V): AnswerColumns;
  /**
   * For a type answered in parts that a spreadsheet reads apart (a grid's rows): the names of
   * its columns in the CSV of responses, and a stored answer's cell in each. Absent: one column
   * holding answerText.
   */
  readonly csv?: {
    columns(question: S): string[];
    cells(value: V, count: number): Array<string | null>;
  };
  /**
   * What a respondent is shown of it besides its text and options, in the tools' field names:
   * what they need to answer, never the key (a scale's range and end words). None when absent.
   */
  respondentFields?(question: S): Record<string, unknown>;
  /** The answers a review shows as right. */
  rightAnswers(question: S): string[];
  /** Where its answers are counted, and which count as right; null for typed answers (counted right or wrong). */
  analysisKeys(question: S): AnalysisKeys | null;
  /**
   * Its figures in get_results' statistics, after what every question has: the fields its
   * fields.ts `statistics` lists besides `type`.
   */
  statistics(question: S, figures: StatisticsFigures): object;
  /** Which stored value the statistics list the most common of ("none": it has choice counts instead). */
  readonly commonAnswers: 'none' | 'text' | 'number';
  /**
   * Whether an answer holds words the respondent typed (shown as typed, never typeset), rather
   * than the owner's words chosen from the question (options, items, matches: rich text).
   */
  readonly answerIsTyped: boolean;
  /**
   * "Accept this answer" (the owner marks one typed answer right, domain/grading/accept-answer.ts):
   * the texts of a stored answer its key does not accept yet, each with its part (a blank's
   * index; null: the whole answer), and the key with one of them added, or why it cannot take it.
   * Absent: its answers are not texts matched to a list.
   */
  readonly accepting?: {
    unaccepted(key: Omit<S, 'id'>, value: V): Array<{ part: number | null; text: string }>;
    add(key: Omit<S, 'id'>, part: number | null, text: string): { key: Omit<S, 'id'> } | { problem: string };
  };
}

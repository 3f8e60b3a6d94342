import { z } from 'zod';
import type { QuizRow, SettingsData } from '../db/repositories';
import { DEFAULT_TIME_ZONE, parseTime } from './time-zone';

/**
 * Every quiz setting, one entry each: its input schema (with the description the tools publish),
 * the column and record field, the default a new quiz takes, the editor's control and the line the
 * quiz page shows. The tools' input and output schemas, the mapping to the columns, the record,
 * the editor's draft and form, and the quiz page's summary are derived from this table
 * (docs/architecture.md, "How to add a setting").
 */

/** When respondents may see the answer key (domain/taking/answer-review.ts). */
export const SHOW_CORRECT_ANSWERS = ['never', 'after_submit', 'after_close'] as const;
export type ShowCorrectAnswers = (typeof SHOW_CORRECT_ANSWERS)[number];

/** The languages of the respondent pages' own words (respondent/messages/ has one file each). */
export const LANGUAGES = ['en', 'es', 'pt', 'fr', 'de', 'ar'] as const;
export type Language = (typeof LANGUAGES)[number];

export const TIME_LIMIT_MAX_MINUTES = 600;

// An instant: with its offset as written; without one, a wall-clock time read in the call's zone
// (settingsInZone in account-time-zone.ts), since "09:00" alone means a different moment to each reader.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?$/i;
const OFFSET = /(Z|[+-]\d{2}:\d{2})$/i;
export const hasOffset = (value: string): boolean => OFFSET.test(value);
const instant = (field: string) =>
  z
    .string({ error: `${field} must be an ISO-8601 date and time, or null` })
    .refine((value) => DATE_TIME.test(value), {
      params: { code: 'not_a_time' },
      error: `${field} needs a date and a time, such as 2026-03-01T09:00 (read in timezone) or 2026-03-01T08:00:00Z`,
    })
    .refine((value) => parseTime(value, DEFAULT_TIME_ZONE).ok, {
      error: `${field} is not a real date and time`,
      params: { code: 'not_a_time' },
    })
    .nullable();

const wholeOrNull = (field: string, min: number, max?: number) => {
  const range = max === undefined ? `at least ${min}` : `from ${min} to ${max}`;
  const base = z
    .number({ error: `${field} must be a whole number ${range}, or null` })
    .int({ error: `${field} must be a whole number ${range}, or null` })
    .min(min, { error: `${field} must be at least ${min}` });
  return (max === undefined ? base : base.max(max, { error: `${field} must be at most ${max}` })).nullable();
};

const onOff = (field: string) => z.boolean({ error: `${field} must be true or false` });

const timestamp = z.string();

/** How the editor asks for a setting; `null` in the table: the editor does not show it. */
export type EditorControl =
  | { kind: 'checkbox'; label: string; hint?: string }
  /** Typed as text; `whole` sends whole numbers as numbers, else any number. */
  | { kind: 'number'; label: string; hint: string; whole: boolean }
  /** A date-time control in the zone the page names (`zone`: "your time zone (Europe/Paris)"). */
  | { kind: 'time'; label: string; hint: (zone: string) => string }
  | { kind: 'choice'; label: string; choices: Readonly<Record<string, string>> };

/** How the quiz page words the stored value: yes/no, a time in the owner's zone, or text of its own. */
export type SummaryLine =
  | { term: string; kind: 'on_off' }
  | { term: string; kind: 'time'; none: string }
  | { term: string; kind: 'text'; text: (value: never) => string };

interface SettingEntry<Name extends string, Input extends z.ZodType, Output extends z.ZodType> {
  name: Name;
  /** `how`: the quiz's own settings; `taking`: how it is taken (domain/attempts/), shown as a group. */
  group: 'how' | 'taking';
  input: Input;
  /** The record's schema (get_quiz_settings' answer, listed as it is: no description). */
  output: Output;
  column: keyof SettingsData & keyof QuizRow;
  /** What a new quiz takes when the caller leaves it out: the column's default in prisma/schema.prisma. */
  default: z.output<Input>;
  /** The stored row's value as the record shows it; the column's value as it is when left out. */
  record?: (quiz: QuizRow) => z.output<Output>;
  /** The caller's value as the column stores it; as it is when left out. */
  toColumn?: (value: z.output<Input>) => SettingsData[keyof SettingsData];
  editor: EditorControl | null;
  /** `null`: the quiz page says it otherwise. */
  summary: SummaryLine | null;
}

const setting = <Name extends string, Input extends z.ZodType, Output extends z.ZodType>(
  entry: SettingEntry<Name, Input, Output>,
) => entry;

/** The column's instant; a time still without an offset here (settingsInZone did not read it) is UTC's. */
const instantOrNull = (value: string | null): Date | null => {
  if (value === null) return null;
  const parsed = parseTime(value, DEFAULT_TIME_ZONE);
  return parsed.ok ? parsed.at : new Date(value);
};
const isoOrNull = (value: Date | null): string | null => value?.toISOString() ?? null;

/** The quiz's setting; an unknown stored value reads as "never". */
export function showCorrectAnswersOf(quiz: Pick<QuizRow, 'showCorrectAnswers'>): ShowCorrectAnswers {
  const value = quiz.showCorrectAnswers;
  return value === 'after_submit' || value === 'after_close' ? value : 'never';
}

/** The quiz's language; an unknown stored value reads as English. */
export function languageOf(quiz: Pick<QuizRow, 'language'>): Language {
  return (LANGUAGES as readonly string[]).includes(quiz.language) ? (quiz.language as Language) : 'en';
}

/** Each language in its own words, as the editor offers it. */
const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  es: 'Español',
  pt: 'Português',
  fr: 'Français',
  de: 'Deutsch',
  ar: 'العربية',
};

/** Each language in English, as the owner's pages name it. */
const LANGUAGES_IN_ENGLISH: Record<Language, string> = {
  en: 'English',
  es: 'Spanish',
  pt: 'Portuguese',
  fr: 'French',
  de: 'German',
  ar: 'Arabic',
};

/** In the order the tools list them; the editor and the quiz page show them in this order too, by group. */
export const SETTINGS = [
  setting({
    name: 'accepting_responses',
    group: 'how',
    input: onOff('accepting_responses').describe('The public page takes responses.'),
    output: z.boolean(),
    column: 'acceptingResponses',
    default: true,
    // The quiz page's close and reopen buttons change it, and its "Open right now" line says it.
    editor: null,
    summary: null,
  }),
  setting({
    name: 'show_score_to_respondent',
    group: 'how',
    input: onOff('show_score_to_respondent').describe('Show the score after submitting.'),
    output: z.boolean(),
    column: 'showScoreToRespondent',
    default: true,
    editor: { kind: 'checkbox', label: 'Show respondents their score' },
    summary: { term: 'Show score to respondents', kind: 'on_off' },
  }),
  setting({
    name: 'pass_mark_percent',
    group: 'how',
    input: z
      .number({ error: 'pass_mark_percent must be a number from 0 to 100, or null for no pass mark' })
      .min(0, { error: 'pass_mark_percent must be at least 0' })
      .max(100, { error: 'pass_mark_percent must be at most 100' })
      .nullable()
      .describe('Percent to pass; null: none.'),
    output: z.number().nullable(),
    column: 'passMarkPercent',
    default: null,
    editor: {
      kind: 'number',
      label: 'Pass mark, in percent (optional)',
      hint: 'From 0 to 100; leave empty for no pass mark.',
      whole: false,
    },
    summary: {
      term: 'Pass mark',
      kind: 'text',
      text: (value: number | null) => (value === null ? 'None' : `${value}%`),
    },
  }),
  setting({
    name: 'collect_name',
    group: 'how',
    input: onOff('collect_name').describe('Ask for a name.'),
    output: z.boolean(),
    column: 'collectName',
    default: true,
    editor: { kind: 'checkbox', label: 'Ask for their name' },
    summary: { term: 'Ask for name', kind: 'on_off' },
  }),
  setting({
    name: 'collect_email',
    group: 'how',
    input: onOff('collect_email').describe('Ask for an email.'),
    output: z.boolean(),
    column: 'collectEmail',
    default: false,
    editor: { kind: 'checkbox', label: 'Ask for their email address' },
    summary: { term: 'Ask for email', kind: 'on_off' },
  }),
  setting({
    name: 'require_all_answers',
    group: 'how',
    input: onOff('require_all_answers').describe(
      'Every question must be answered; at time-up what is there is submitted, blanks score 0.',
    ),
    output: z.boolean(),
    column: 'requireAllAnswers',
    default: true,
    editor: { kind: 'checkbox', label: 'Every question must be answered' },
    summary: { term: 'All questions required', kind: 'on_off' },
  }),
  setting({
    name: 'show_correct_answers',
    group: 'how',
    input: z
      .enum(SHOW_CORRECT_ANSWERS, {
        error: `show_correct_answers must be ${SHOW_CORRECT_ANSWERS.map((v) => `"${v}"`).join(', ')}`,
      })
      .describe('When respondents see the answer key.'),
    output: z.string() as z.ZodType<ShowCorrectAnswers>,
    column: 'showCorrectAnswers',
    default: 'never',
    record: showCorrectAnswersOf,
    editor: {
      kind: 'choice',
      label: 'Show the right answers and explanations',
      choices: {
        never: 'Never',
        after_submit: 'Right after submitting',
        after_close: 'Once the quiz is closed',
      } satisfies Record<ShowCorrectAnswers, string>,
    },
    summary: {
      term: 'Show the right answers',
      kind: 'text',
      text: (value: ShowCorrectAnswers) =>
        ({ never: 'Never', after_submit: 'After submitting', after_close: 'Once closed' })[value],
    },
  }),
  setting({
    name: 'allow_embedding',
    group: 'how',
    input: onOff('allow_embedding').describe('Other sites may frame the page.'),
    output: z.boolean(),
    column: 'allowEmbedding',
    default: false,
    editor: {
      kind: 'checkbox',
      label: 'Allow other sites to embed the quiz',
      hint: 'Lets a school site or blog show the public page in a frame.',
    },
    summary: { term: 'Other sites may embed it', kind: 'on_off' },
  }),
  setting({
    name: 'math_dollars',
    group: 'how',
    input: onOff('math_dollars').describe(
      'Typeset $..$, $$..$$ as TeX too (\\(..\\), \\[..\\] always are); off, "$5" is text.',
    ),
    output: z.boolean(),
    column: 'mathDollars',
    default: false,
    editor: {
      kind: 'checkbox',
      label: 'Typeset $...$ and $$...$$ as maths',
      hint: 'Formulas between \\( \\) and \\[ \\] are always typeset. Leave this off when the quiz talks about money, so "$5 and $10" stays text.',
    },
    summary: { term: 'Maths between dollar signs', kind: 'on_off' },
  }),
  setting({
    name: 'time_limit_minutes',
    group: 'taking',
    input: wholeOrNull('time_limit_minutes', 1, TIME_LIMIT_MAX_MINUTES).describe(
      'Minutes per attempt; at time-up what is there is submitted, blanks score 0. null: none.',
    ),
    output: z.number().int().nullable(),
    column: 'timeLimitMinutes',
    default: null,
    editor: {
      kind: 'number',
      label: 'Time limit, in minutes (optional)',
      hint: `From 1 to ${TIME_LIMIT_MAX_MINUTES}. The page counts down and sends the answers when the time is up.`,
      whole: true,
    },
    summary: {
      term: 'Time limit',
      kind: 'text',
      text: (value: number | null) => (value === null ? 'None' : `${value} minutes`),
    },
  }),
  setting({
    name: 'opens_at',
    group: 'taking',
    input: instant('opens_at').describe('No attempts before (ISO-8601). null: none.'),
    output: timestamp.nullable(),
    column: 'opensAt',
    default: null,
    record: (quiz) => isoOrNull(quiz.opensAt),
    toColumn: instantOrNull,
    editor: {
      kind: 'time',
      label: 'Opens at (optional)',
      hint: (zone) => `A date and time in ${zone}; leave empty to open it at once.`,
    },
    summary: { term: 'Opens', kind: 'time', none: 'Any time' },
  }),
  setting({
    name: 'closes_at',
    group: 'taking',
    input: instant('closes_at').describe('No attempts after (ISO-8601).'),
    output: timestamp.nullable(),
    column: 'closesAt',
    default: null,
    record: (quiz) => isoOrNull(quiz.closesAt),
    toColumn: instantOrNull,
    editor: {
      kind: 'time',
      label: 'Closes at (optional)',
      hint: (zone) =>
        `In ${zone}, after the opening time. An attempt started before it may finish within its time limit.`,
    },
    summary: { term: 'Closes', kind: 'time', none: 'When closed by hand' },
  }),
  setting({
    name: 'shuffle_questions',
    group: 'taking',
    input: onOff('shuffle_questions').describe('Own question order per attempt.'),
    output: z.boolean(),
    column: 'shuffleQuestions',
    default: false,
    editor: { kind: 'checkbox', label: 'Shuffle the questions for each attempt' },
    summary: { term: 'Shuffle questions', kind: 'on_off' },
  }),
  setting({
    name: 'shuffle_options',
    group: 'taking',
    input: onOff('shuffle_options').describe('Own option order per attempt.'),
    output: z.boolean(),
    column: 'shuffleOptions',
    default: false,
    editor: { kind: 'checkbox', label: 'Shuffle the options for each attempt' },
    summary: { term: 'Shuffle options', kind: 'on_off' },
  }),
  setting({
    name: 'question_pool_size',
    group: 'taking',
    // Its upper bound is the quiz's question count, checked with the questions (attempts/taking-rules.ts).
    input: wholeOrNull('question_pool_size', 1).describe('Questions drawn at random per attempt. null: all.'),
    output: z.number().int().nullable(),
    column: 'questionPoolSize',
    default: null,
    editor: {
      kind: 'number',
      label: 'Questions drawn per attempt (optional)',
      hint: 'Each attempt gets this many questions at random; leave empty for all of them.',
      whole: true,
    },
    summary: {
      term: 'Questions per attempt',
      kind: 'text',
      text: (value: number | null) => (value === null ? 'All' : String(value)),
    },
  }),
  setting({
    name: 'max_attempts_per_email',
    group: 'taking',
    input: wholeOrNull('max_attempts_per_email', 1).describe(
      'Submissions per email address; needs collect_email.',
    ),
    output: z.number().int().nullable(),
    column: 'maxAttemptsPerEmail',
    default: null,
    editor: {
      kind: 'number',
      label: 'Submissions per email address (optional)',
      hint: 'Needs "Ask for their email address". It holds honest people to the rule; someone determined can use another address.',
      whole: true,
    },
    summary: {
      term: 'Submissions per email',
      kind: 'text',
      text: (value: number | null) => (value === null ? 'No limit' : String(value)),
    },
  }),
  setting({
    name: 'language',
    group: 'taking',
    input: z
      .enum(LANGUAGES, { error: `language must be one of ${LANGUAGES.join(', ')}` })
      .describe("Respondent pages' language."),
    output: z.string() as z.ZodType<Language>,
    column: 'language',
    default: 'en',
    record: languageOf,
    editor: { kind: 'choice', label: 'Language of the public pages', choices: LANGUAGE_NAMES },
    summary: {
      term: 'Language of the public pages',
      kind: 'text',
      text: (value: Language) => LANGUAGES_IN_ENGLISH[value],
    },
  }),
] as const;

type Setting = (typeof SETTINGS)[number];
export type SettingName = Setting['name'];
type Named<N extends SettingName> = Extract<Setting, { name: N }>;

/** The settings' input shape, for `z.strictObject`. */
export type SettingsInputShape = { [N in SettingName]: Named<N>['input'] };
export type SettingsOutputShape = { [N in SettingName]: Named<N>['output'] };
export type SettingValues = { [N in SettingName]: z.output<Named<N>['output']> };

/** A setting's default as its description words it: `true`, `null`, `never`. */
export function defaultInWords(entry: Pick<Setting, 'default'>): string {
  return String(entry.default);
}

/**
 * The settings' input shape, for `z.strictObject`. Each description ends with the default a new
 * quiz takes, from the table, so the words cannot drift from it; no `default` keyword, since
 * update_quiz shares the shape and there a setting left out stays as it is.
 */
export function settingsInputShape(): SettingsInputShape {
  return Object.fromEntries(
    SETTINGS.map((entry) => [
      entry.name,
      entry.input.describe(`${entry.input.description ?? ''} Default ${defaultInWords(entry)}.`),
    ]),
  ) as SettingsInputShape;
}

/** The record's fields of `group`, in table order. */
export function settingsOutputShape(group?: Setting['group']): Partial<SettingsOutputShape> {
  return Object.fromEntries(
    SETTINGS.filter((entry) => !group || entry.group === group).map((entry) => [entry.name, entry.output]),
  );
}

/** The stored row's settings as the record shows them (snake_case, ISO-8601 times). */
export function settingValues(quiz: QuizRow): SettingValues {
  return Object.fromEntries(
    SETTINGS.map((entry) => {
      const record = 'record' in entry ? (entry.record as (row: QuizRow) => unknown) : undefined;
      return [entry.name, record ? record(quiz) : quiz[entry.column]];
    }),
  ) as SettingValues;
}

/** The settings columns a caller's snake_case settings change; absent keys stay as they are. */
export function settingsColumns(settings: Partial<Record<SettingName, unknown>> | undefined): SettingsData {
  const data: Record<string, unknown> = {};
  for (const entry of SETTINGS) {
    const value = settings?.[entry.name];
    if (value === undefined) continue;
    const toColumn = 'toColumn' in entry ? (entry.toColumn as (input: unknown) => unknown) : undefined;
    data[entry.column] = toColumn ? toColumn(value) : value;
  }
  return data as SettingsData;
}

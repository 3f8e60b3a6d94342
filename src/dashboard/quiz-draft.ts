import { dateTimeLocalValue, localIso, parseTime } from '../domain/time-zone';
import { z } from 'zod';
import type { QuestionRecord, SettingsRecord } from '../domain/quiz-records';
import type { ImageRecord } from '../domain/images/image-ref';
import {
  DescriptionSchema,
  LIMITS,
  QUESTION_TYPES,
  QuestionsInputSchema,
  SettingsInputSchema,
  TitleSchema,
  parseOrThrow,
  type QuestionType,
} from '../domain/quiz-input';
import { parseNumberAnswer } from '../domain/answer-text';
import { SETTINGS, type EditorControl, type SettingName } from '../domain/quiz-settings';
import { TYPED_FIELDS, definitionOf, type TypedField } from '../domain/question-types';

/** A new question's type, and a form's question whose type is not one: the registry's first. */
const FIRST_TYPE = QUESTION_TYPES[0];

/**
 * The quiz editor's form as the owner typed it: every value a string (or a ticked box), so a
 * form refused by validation comes back exactly as it was sent. It becomes the domain's input
 * only on save (`draftToInput`), through the same schemas as the tools.
 */
export interface DraftOption {
  label: string;
  score: string;
  image: DraftPicture;
}

/**
 * A picture as the editor carries it between posts: `ref` is a stored picture's path
 * (`/images/<hash>.<ext>`) or an upload of this editor's (`upl_…`, stored on Save through the
 * tools' pipeline), '' for none; its size only draws the preview.
 */
export interface DraftPicture {
  ref: string;
  alt: string;
  width: string;
  height: string;
}

export const noPicture = (): DraftPicture => ({ ref: '', alt: '', width: '', height: '' });

export interface DraftQuestion {
  /** The id of the question this one edits ('' for a new one): kept when the answer key is unchanged. */
  question_id: string;
  type: QuestionType;
  text: string;
  explanation: string;
  /** The question's own picture. */
  image: DraftPicture;
  points: string;
  correct_answer: 'yes' | 'no';
  options: DraftOption[];
  /** short_text: one accepted answer per line; none collects text only. */
  accepted_answers: string;
  /** number: as typed ("3,5" works, as on the public page). */
  correct_number: string;
  tolerance: string;
  /** ordering: one item per line, in the right order. */
  items: string;
  /** ordering: points for each item in place; empty for points on the whole order. */
  points_per_item: string;
  /**
   * fill_in_blanks: one line per blank, [[1]] first (blanksLines): its accepted answers between
   * "|", or a choice list with its right option starred; " = 2" at the end for other points than 1.
   */
  blanks: string;
  /** matching: one pair per line, "prompt = match", each prompt with its right match. */
  pairs: string;
  /** matching: one match per line that fits no prompt. */
  extra_matches: string;
  points_per_pair: string;
  /** scale: its range and the words of its two ends, as typed. */
  scale_min: string;
  scale_max: string;
  min_label: string;
  max_label: string;
  /** essay: one criterion per line, "Thesis: none = 0; clear = 2"; the word bounds as typed. */
  rubric: string;
  min_words: string;
  max_words: string;
  /** grid: one column label per line (its rows are `items`); "on" for checkboxes. */
  columns: string;
  checkboxes: string;
  /** grid: one line per row, its right column numbers (1 first) between commas; empty: a survey. */
  right_columns: string;
  /** calculated: its formula as typed, one variable per line (variableLine), "absolute" or "relative". */
  formula: string;
  variables: string;
  tolerance_type: string;
}

/**
 * Every setting the editor shows (the table's entries with an editor control, domain/quiz-settings.ts),
 * as typed: a ticked box, or text the tools' schemas check on Save.
 */
export type DraftSettings = Partial<Record<SettingName, string | boolean>>;

/** The settings the editor shows, in the table's order. */
export const EDITOR_SETTINGS = SETTINGS.filter((entry) => entry.editor !== null);

export interface QuizDraft {
  title: string;
  description: string;
  questions: DraftQuestion[];
  settings: DraftSettings;
  /** Ticked to change a published quiz. */
  confirm_edit_published: boolean;
  /** Ticked to keep the ids of questions whose key was fixed and mark their past answers again. */
  remark_past_responses: boolean;
}

/**
 * A setting's value as the editor shows it: a box ticked or not, a number or a choice as text, a
 * time in the page's zone; empty for none.
 */
function draftValue(control: EditorControl, value: unknown, timeZone = 'UTC'): string | boolean {
  if (control.kind === 'checkbox') return value === true;
  if (value === null || value === undefined) return '';
  if (control.kind === 'time') return dateTimeLocalValue(new Date(String(value)), timeZone);
  return String(value);
}

/** A new quiz's settings: the table's defaults (the columns' defaults in prisma/schema.prisma). */
export function emptyDraft(): QuizDraft {
  return {
    title: '',
    description: '',
    questions: [newQuestion(FIRST_TYPE)],
    settings: Object.fromEntries(
      EDITOR_SETTINGS.map((entry) => [entry.name, draftValue(entry.editor!, entry.default)]),
    ),
    confirm_edit_published: false,
    remark_past_responses: false,
  };
}

export function newQuestion(type: QuestionType): DraftQuestion {
  return {
    question_id: '',
    type,
    text: '',
    explanation: '',
    image: noPicture(),
    points: '1',
    correct_answer: 'yes',
    options: definitionOf(type).takes.includes('options')
      ? [
          { label: '', score: '1', image: noPicture() },
          { label: '', score: '0', image: noPicture() },
        ]
      : [],
    accepted_answers: '',
    correct_number: '',
    tolerance: '0',
    items: '',
    points_per_item: '',
    pairs: '',
    extra_matches: '',
    points_per_pair: '1',
    blanks: '',
    scale_min: '1',
    scale_max: '5',
    min_label: '',
    max_label: '',
    rubric: '',
    min_words: '',
    max_words: '',
    columns: '',
    checkboxes: '',
    right_columns: '',
    formula: '',
    variables: '',
    tolerance_type: 'absolute',
  };
}

/** A stored picture as the editor carries it: by its path on our origin. */
function draftPicture(image: ImageRecord | undefined): DraftPicture {
  if (!image) return noPicture();
  return {
    ref: new URL(image.url).pathname,
    alt: image.alt,
    width: String(image.width),
    height: String(image.height),
  };
}

/** The editor filled from a stored quiz. */
export function draftFromQuiz(
  quiz: { title: string; description: string | null; questions: QuestionRecord[] },
  settings: SettingsRecord,
  timeZone = 'UTC',
): QuizDraft {
  return {
    title: quiz.title,
    description: quiz.description ?? '',
    questions: quiz.questions.map((question) => ({
      ...newQuestion(question.type),
      question_id: question.question_id,
      text: question.text,
      explanation: question.explanation ?? '',
      image: draftPicture(question.image),
      ...('points' in question ? { points: String(question.points) } : {}),
      ...('correct_answer' in question ? { correct_answer: question.correct_answer } : {}),
      options:
        'options' in question
          ? question.options.map((option) => ({
              label: option.label,
              score: String(option.score),
              image: draftPicture((option as { image?: ImageRecord }).image),
            }))
          : [],
      ...('accepted_answers' in question ? { accepted_answers: question.accepted_answers.join('\n') } : {}),
      ...('correct_number' in question
        ? { correct_number: String(question.correct_number), tolerance: String(question.tolerance) }
        : {}),
      ...('items' in question
        ? {
            items: question.items.map((item) => item.label).join('\n'),
            points_per_item: question.points_per_item === null ? '' : String(question.points_per_item),
          }
        : {}),
      ...('blanks' in question ? { blanks: question.blanks.map(blankLine).join('\n') } : {}),
      ...('pairs' in question
        ? {
            pairs: question.pairs.map((pair) => `${pair.prompt} ${PAIR_MARK} ${pair.match}`).join('\n'),
            extra_matches: question.extra_matches.map((extra) => extra.label).join('\n'),
            points_per_pair: String(question.points_per_pair),
          }
        : {}),
      ...('scale_min' in question
        ? {
            scale_min: String(question.scale_min),
            scale_max: String(question.scale_max),
            min_label: question.scale_labels[0] ?? '',
            max_label: question.scale_labels[1] ?? '',
          }
        : {}),
      ...('rubric' in question
        ? {
            rubric: question.rubric.map(rubricLine).join('\n'),
            points: question.rubric.length > 0 ? '' : String(question.points),
            min_words: question.min_words === null ? '' : String(question.min_words),
            max_words: question.max_words === null ? '' : String(question.max_words),
          }
        : {}),
      ...('columns' in question
        ? {
            columns: question.columns.join('\n'),
            checkboxes: question.checkboxes ? 'on' : '',
            right_columns: (question.right_columns ?? [])
              .map((right) => right.map((column) => column + 1).join(', '))
              .join('\n'),
          }
        : {}),
      ...('formula' in question
        ? {
            formula: question.formula,
            variables: (question.variables as DraftVariable[]).map(variableLine).join('\n'),
            tolerance: String(question.tolerance),
            tolerance_type: question.tolerance_type,
          }
        : {}),
    })),
    settings: Object.fromEntries(
      EDITOR_SETTINGS.map((entry) => [entry.name, draftValue(entry.editor!, settings[entry.name], timeZone)]),
    ),
    confirm_edit_published: false,
    remark_past_responses: false,
  };
}

/**
 * The draft's fields that carry each typed field in the form (a scale's two end words are one
 * list to the tools); a new typed field does not compile without its entry, so the form's reader
 * below takes every field the registry has.
 */
const DRAFT_FIELDS: { readonly [F in TypedField]: ReadonlyArray<keyof DraftQuestion> } = {
  points: ['points'],
  correct_answer: ['correct_answer'],
  // Read by OPTION_FIELD, one option at a time; the name alone is the options' fieldset.
  options: ['options'],
  accepted_answers: ['accepted_answers'],
  correct_number: ['correct_number'],
  tolerance: ['tolerance'],
  items: ['items'],
  points_per_item: ['points_per_item'],
  scale_min: ['scale_min'],
  scale_max: ['scale_max'],
  scale_labels: ['min_label', 'max_label'],
  blanks: ['blanks'],
  rubric: ['rubric'],
  min_words: ['min_words'],
  max_words: ['max_words'],
  pairs: ['pairs'],
  extra_matches: ['extra_matches'],
  points_per_pair: ['points_per_pair'],
  columns: ['columns'],
  checkboxes: ['checkboxes'],
  right_columns: ['right_columns'],
  formula: ['formula'],
  variables: ['variables'],
  tolerance_type: ['tolerance_type'],
};

/** The fields of a question the form names `questions[2][...]`: its own, then every typed field's, from the registry. */
export const QUESTION_DRAFT_FIELDS: ReadonlyArray<keyof DraftQuestion> = [
  'question_id',
  'type',
  'text',
  'explanation',
  ...new Set(TYPED_FIELDS.flatMap((field) => DRAFT_FIELDS[field])),
];

const QUESTION_FIELD = new RegExp(`^questions\\[(\\d{1,3})\\]\\[(${QUESTION_DRAFT_FIELDS.join('|')})\\]$`);
const OPTION_FIELD =
  /^questions\[(\d{1,3})\]\[options\]\[(\d{1,2})\]\[(label|score|image_ref|image_alt|image_width|image_height)\]$/;
const PICTURE_FIELD = /^questions\[(\d{1,3})\]\[(image_ref|image_alt|image_width|image_height)\]$/;
/** A picture's hidden `ref`: one of our paths or an upload id; anything else is dropped. */
const PICTURE_REF = /^(\/images\/[0-9a-f]{64}\.(png|jpg|webp|gif)|upl_[A-Za-z0-9_-]{24})$/;

function setPicture(picture: DraftPicture, part: string, value: string): void {
  if (part === 'image_ref') picture.ref = PICTURE_REF.test(value) ? value : '';
  else if (part === 'image_alt') picture.alt = value;
  else if (part === 'image_width') picture.width = /^\d{1,5}$/.test(value) ? value : '';
  else if (part === 'image_height') picture.height = /^\d{1,5}$/.test(value) ? value : '';
}

/**
 * Reads the editor's flat form (`questions[2][options][1][label]`) with two patterns rather than
 * a nesting query parser: indexes are bounded by the quiz limits, gaps close up, and nothing
 * but these names is read.
 */
export function readDraft(body: Record<string, unknown>): QuizDraft {
  const text = (name: string) => (typeof body[name] === 'string' ? body[name] : '');
  const questions = new Map<number, DraftQuestion>();
  const questionAt = (index: number) => {
    let question = questions.get(index);
    if (!question) {
      question = { ...newQuestion(FIRST_TYPE), points: '', tolerance: '', options: [] };
      questions.set(index, question);
    }
    return question;
  };
  const options = new Map<number, Map<number, DraftOption>>();
  for (const [name, value] of Object.entries(body)) {
    if (typeof value !== 'string') continue;
    const field = QUESTION_FIELD.exec(name);
    if (field && Number(field[1]) < LIMITS.questionsMax) {
      const question = questionAt(Number(field[1]));
      const key = field[2] as keyof DraftQuestion;
      if (key === 'type') question.type = QUESTION_TYPES.find((type) => type === value) ?? FIRST_TYPE;
      else if (key === 'correct_answer') question.correct_answer = value === 'no' ? 'no' : 'yes';
      else if (key !== 'options' && key !== 'image') question[key] = value;
      continue;
    }
    const picture = PICTURE_FIELD.exec(name);
    if (picture && Number(picture[1]) < LIMITS.questionsMax) {
      setPicture(questionAt(Number(picture[1])).image, picture[2]!, value);
      continue;
    }
    const option = OPTION_FIELD.exec(name);
    if (option && Number(option[1]) < LIMITS.questionsMax && Number(option[2]) < LIMITS.optionsMax) {
      questionAt(Number(option[1]));
      const byIndex = options.get(Number(option[1])) ?? new Map<number, DraftOption>();
      options.set(Number(option[1]), byIndex);
      const row = byIndex.get(Number(option[2])) ?? { label: '', score: '', image: noPicture() };
      byIndex.set(Number(option[2]), row);
      if (option[3] === 'label' || option[3] === 'score') row[option[3]] = value;
      else setPicture(row.image, option[3]!, value);
    }
  }
  const inOrder = <T>(map: Map<number, T>) => [...map.entries()].sort(([a], [b]) => a - b);
  for (const [index, byIndex] of inOrder(options)) {
    questions.get(index)!.options = inOrder(byIndex).map(([, row]) => row);
  }
  const settings: DraftSettings = {};
  for (const { name, editor, default: fallback } of EDITOR_SETTINGS) {
    const field = `settings[${name}]`;
    if (editor!.kind === 'checkbox') settings[name] = body[field] === 'on';
    else if (editor!.kind === 'choice') settings[name] = text(field) || String(fallback);
    else settings[name] = text(field);
  }
  return {
    title: text('title'),
    description: text('description'),
    questions: inOrder(questions).map(([, question]) => question),
    settings,
    confirm_edit_published: body.confirm_edit_published === 'on',
    remark_past_responses: body.remark_past_responses === 'on',
  };
}

/**
 * A number as a number (a fraction too, which the schema then refuses as not whole); anything
 * else goes to the schema as typed, which says what to fix.
 */
function integerOrText(value: string): number | string | undefined {
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  return /^[-+]?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/** A number as typed (a decimal comma too); anything else goes to the schema as typed. */
function numberOrText(value: string): number | string | undefined {
  if (value.trim() === '') return undefined;
  const parsed = parseNumberAnswer(value);
  return 'value' in parsed ? parsed.value : value.trim();
}

/**
 * A picture as the tools take it: an upload of this editor's by its id, a stored one by our own
 * address (looked up, not fetched); null removes it, so Save always says what the page shows.
 */
function pictureInput(picture: DraftPicture, origin: string) {
  if (!picture.ref) return null;
  return picture.ref.startsWith('upl_')
    ? { alt: picture.alt, upload_id: picture.ref }
    : { alt: picture.alt, url: `${origin}${picture.ref}` };
}

function questionInput(question: DraftQuestion, origin: string) {
  const common = {
    type: question.type,
    ...(question.question_id ? { question_id: question.question_id } : {}),
    text: question.text,
    ...(question.explanation.trim() ? { explanation: question.explanation } : {}),
    image: pictureInput(question.image, origin),
  };
  const typed = typedInput(question);
  if (Array.isArray(typed.options)) {
    typed.options = (typed.options as Array<Record<string, unknown>>).map((option, index) => ({
      ...option,
      image: pictureInput(question.options[index]!.image, origin),
    }));
  }
  return { ...common, ...typed };
}

const EditorInputSchema = z.strictObject({
  title: TitleSchema,
  description: DescriptionSchema,
  questions: QuestionsInputSchema,
  settings: SettingsInputSchema,
});

export type EditorInput = z.output<typeof EditorInputSchema>;

/**
 * The draft checked by the tools' own schemas; a DomainError with one issue per field otherwise.
 * Times picked without an offset (the date-time control) are read in `timeZone`.
 */
export function draftToInput(draft: QuizDraft, timeZone = 'UTC', origin = ''): EditorInput {
  const input = {
    title: draft.title,
    description: draft.description,
    questions: draft.questions.map((question) => questionInput(question, origin)),
    settings: Object.fromEntries(
      EDITOR_SETTINGS.map(({ name, editor }) => [name, inputValue(editor!, draft.settings[name], timeZone)]),
    ),
  };
  return parseOrThrow(EditorInputSchema, input, 'The quiz was not saved');
}

/**
 * A setting as typed, for the schema: a box as true or false, a choice as chosen, empty text as
 * none (null), a number or a time read where it can be; anything unreadable goes on as typed for
 * the schema to name. Times picked without an offset are read in the zone the page showed.
 */
function inputValue(control: EditorControl, typed: string | boolean | undefined, timeZone: string): unknown {
  if (control.kind === 'checkbox') return typed === true;
  const value = typeof typed === 'string' ? typed.trim() : '';
  if (control.kind === 'choice') return value;
  if (value === '') return null;
  if (control.kind === 'time') {
    const parsed = parseTime(value, timeZone);
    return parsed.ok ? localIso(parsed.at, timeZone) : value;
  }
  if (control.whole) return integerOrText(value) ?? null;
  return Number.isFinite(Number(value)) ? Number(value) : value;
}

/** Each typed field as the editor sends it to the schema, which names any problem. */
const FIELD_INPUT: Record<TypedField, (question: DraftQuestion) => unknown> = {
  // Points per item, when given, stand in for the points of the whole order.
  // Points per item, or an essay's rubric, stand in for the points.
  points: (question) =>
    question.points_per_item.trim() || question.rubric.trim() ? undefined : integerOrText(question.points),
  correct_answer: (question) => question.correct_answer,
  options: (question) =>
    question.options.map((option) => ({ label: option.label, score: integerOrText(option.score) })),
  accepted_answers: acceptedLines,
  correct_number: (question) => numberOrText(question.correct_number),
  tolerance: (question) => numberOrText(question.tolerance),
  items: (question) =>
    question.items
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
      .map((label) => ({ label })),
  points_per_item: (question) => integerOrText(question.points_per_item),
  scale_min: (question) => integerOrText(question.scale_min),
  scale_max: (question) => integerOrText(question.scale_max),
  scale_labels: (question) => [question.min_label.trim(), question.max_label.trim()],
  blanks: (question) => blankLines(question.blanks),
  rubric: (question) => (question.rubric.trim() ? rubricOf(question.rubric) : undefined),
  min_words: (question) => (question.min_words.trim() ? integerOrText(question.min_words) : undefined),
  max_words: (question) => (question.max_words.trim() ? integerOrText(question.max_words) : undefined),
  // "prompt = match" per line, split at the first mark; a line without one has no match to check.
  pairs: (question) =>
    lines(question.pairs).map((line) => {
      const at = line.indexOf(PAIR_MARK);
      return at < 0
        ? { prompt: line, match: '' }
        : { prompt: line.slice(0, at).trim(), match: line.slice(at + PAIR_MARK.length).trim() };
    }),
  extra_matches: (question) => lines(question.extra_matches).map((label) => ({ label })),
  points_per_pair: (question) => integerOrText(question.points_per_pair),
  columns: (question) => lines(question.columns),
  checkboxes: (question) => question.checkboxes === 'on',
  // Column numbers from 1, as the editor shows them; what is not a number goes on for the schema to name.
  right_columns: (question) =>
    question.right_columns.trim()
      ? lines(question.right_columns).map((line) =>
          line
            .split(',')
            .map((part) => part.trim())
            .filter(Boolean)
            .map((part) => (/^\d{1,2}$/.test(part) ? Number(part) - 1 : part)),
        )
      : undefined,
  formula: (question) => (question.formula.trim() ? question.formula.trim() : undefined),
  variables: (question) =>
    question.variables.trim() ? lines(question.variables).map(readVariable) : undefined,
  tolerance_type: (question) => question.tolerance_type || undefined,
};

/** A calculated question's variable, as its record has it. */
interface DraftVariable {
  name: string;
  min: number;
  max: number;
  decimals?: number;
  step?: number;
  unit?: string;
}

/**
 * A variable on its editor line: "name min max", then "decimals 1" or "step 0.5", then "unit km"
 * (the unit to the line's end), e.g. "t 2 8 decimals 1 unit h".
 */
export function variableLine(variable: DraftVariable): string {
  return [
    variable.name,
    String(variable.min),
    String(variable.max),
    variable.step !== undefined ? `step ${variable.step}` : `decimals ${variable.decimals ?? 0}`,
    variable.unit ? `unit ${variable.unit}` : '',
  ]
    .filter(Boolean)
    .join(' ');
}

const VARIABLE_LINE = /^(\S+)\s+(\S+)\s+(\S+)(?:\s+(decimals|step)\s+(\S+))?(?:\s+unit\s+(.+))?$/;

/** A variable line read back; a line that does not read goes on as typed, for the schema to name. */
function readVariable(line: string): DraftVariable | string {
  const match = VARIABLE_LINE.exec(line);
  if (!match) return line;
  const [, name, min, max, kind, amount, unit] = match;
  const number = (text: string) => numberOrText(text) as number;
  return {
    name: name!,
    min: number(min!),
    max: number(max!),
    ...(kind ? { [kind]: number(amount!) } : {}),
    ...(unit ? { unit: unit.trim() } : {}),
  };
}

/** Between a prompt and its match on an editor's line. */
export const PAIR_MARK = '=';

/** The lines of a text box, trimmed, blank ones left out. */
function lines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}

/** A rubric criterion as the editor writes it on one line: "Thesis: none = 0; clear = 2". */
function rubricLine(criterion: {
  criterion: string;
  levels: ReadonlyArray<{ label: string; points: number }>;
}) {
  return `${criterion.criterion}: ${criterion.levels.map((level) => `${level.label} = ${level.points}`).join('; ')}`;
}

/** The editor's rubric lines read back; what does not read goes on as typed, for the schema to name. */
function rubricOf(text: string) {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const colon = line.indexOf(':');
      const criterion = colon < 0 ? line : line.slice(0, colon).trim();
      const levels =
        colon < 0
          ? []
          : line
              .slice(colon + 1)
              .split(';')
              .filter((part) => part.trim());
      return {
        criterion,
        levels: levels.map((part) => {
          const equals = part.lastIndexOf('=');
          return equals < 0
            ? { label: part.trim(), points: part.trim() }
            : { label: part.slice(0, equals).trim(), points: integerOrText(part.slice(equals + 1).trim()) };
        }),
      };
    });
}

/** Between a blank's answers or options on its line. */
const BLANK_PARTS = ' | ';
/** Before the right option of a choice list. */
const RIGHT_MARK = '*';
const POINTS_SUFFIX = /\s=\s*(-?\d+(?:\.\d+)?)\s*$/;

/** A blank as its editor line: "Paris | paris", or "1789 | *1889" for a list; " = 2" for 2 points. */
function blankLine(blank: {
  accepted_answers?: string[];
  options?: string[];
  correct_option?: number;
  points: number;
}): string {
  const parts = blank.options
    ? blank.options.map((label, index) => (index === blank.correct_option ? `${RIGHT_MARK}${label}` : label))
    : (blank.accepted_answers ?? []);
  return `${parts.join(BLANK_PARTS)}${blank.points === 1 ? '' : ` = ${blank.points}`}`;
}

/** The editor's lines as blank entries; a line with a starred part is a choice list. */
function blankLines(text: string) {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const points = POINTS_SUFFIX.exec(line);
      const body = points ? line.slice(0, points.index) : line;
      const parts = body
        .split('|')
        .map((part) => part.trim())
        .filter(Boolean);
      const right = parts.findIndex((part) => part.startsWith(RIGHT_MARK));
      const entry =
        right >= 0
          ? {
              options: parts.map((part) => (part.startsWith(RIGHT_MARK) ? part.slice(1).trim() : part)),
              correct_option: right,
            }
          : { accepted_answers: parts };
      return points ? { ...entry, points: integerOrText(points[1]!) } : entry;
    });
}

/** One accepted answer per line, blank lines left out. */
function acceptedLines(question: DraftQuestion): string[] {
  return question.accepted_answers
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}

/** The fields the question's type takes (its definition), as typed. */
function typedInput(question: DraftQuestion): Record<string, unknown> {
  const takes = definitionOf(question.type).takes;
  // Without accepted answers the question only collects text: its points field does not apply.
  if (takes.includes('accepted_answers') && acceptedLines(question).length === 0) return {};
  return Object.fromEntries(takes.map((field) => [field, FIELD_INPUT[field](question)]));
}

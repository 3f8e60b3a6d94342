import { z } from 'zod';
import type { QuestionRecord, SettingsRecord } from '../domain/quiz-records';
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

/**
 * The quiz editor's form as the owner typed it: every value a string (or a ticked box), so a
 * form refused by validation comes back exactly as it was sent. It becomes the domain's input
 * only on save (`draftToInput`), through the same schemas as the tools.
 */
export interface DraftOption {
  label: string;
  score: string;
}

export interface DraftQuestion {
  /** The id of the question this one edits ('' for a new one): kept when the answer key is unchanged. */
  question_id: string;
  type: QuestionType;
  text: string;
  explanation: string;
  points: string;
  correct_answer: 'yes' | 'no';
  options: DraftOption[];
}

/** Every setting but accepting_responses, which the quiz page's close and reopen buttons change. */
export interface DraftSettings {
  show_score_to_respondent: boolean;
  pass_mark_percent: string;
  collect_name: boolean;
  collect_email: boolean;
  require_all_answers: boolean;
  show_correct_answers: string;
  allow_embedding: boolean;
  // How it is taken (domain/attempts/): typed text, checked by the tools' schemas on Save.
  time_limit_minutes: string;
  opens_at: string;
  closes_at: string;
  shuffle_questions: boolean;
  shuffle_options: boolean;
  question_pool_size: string;
  max_attempts_per_email: string;
  language: string;
}

export interface QuizDraft {
  title: string;
  description: string;
  questions: DraftQuestion[];
  settings: DraftSettings;
  /** Ticked to change a published quiz. */
  confirm_edit_published: boolean;
}

const CHECKBOXES = [
  'show_score_to_respondent',
  'collect_name',
  'collect_email',
  'require_all_answers',
  'allow_embedding',
  'shuffle_questions',
  'shuffle_options',
] as const;

/** The taking settings typed as text: empty means none (null). */
const TAKING_TEXTS = [
  'time_limit_minutes',
  'opens_at',
  'closes_at',
  'question_pool_size',
  'max_attempts_per_email',
] as const;

/** A new quiz's settings: the domain's defaults (the columns' defaults in prisma/schema.prisma). */
export function emptyDraft(): QuizDraft {
  return {
    title: '',
    description: '',
    questions: [newQuestion('yes_no')],
    settings: {
      show_score_to_respondent: true,
      pass_mark_percent: '',
      collect_name: true,
      collect_email: false,
      require_all_answers: true,
      show_correct_answers: 'never',
      allow_embedding: false,
      time_limit_minutes: '',
      opens_at: '',
      closes_at: '',
      shuffle_questions: false,
      shuffle_options: false,
      question_pool_size: '',
      max_attempts_per_email: '',
      language: 'en',
    },
    confirm_edit_published: false,
  };
}

export function newQuestion(type: QuestionType): DraftQuestion {
  return {
    question_id: '',
    type,
    text: '',
    explanation: '',
    points: '1',
    correct_answer: 'yes',
    options:
      type === 'multiple_choice'
        ? [
            { label: '', score: '1' },
            { label: '', score: '0' },
          ]
        : [],
  };
}

/** The editor filled from a stored quiz. */
export function draftFromQuiz(
  quiz: { title: string; description: string | null; questions: QuestionRecord[] },
  settings: SettingsRecord,
): QuizDraft {
  return {
    title: quiz.title,
    description: quiz.description ?? '',
    questions: quiz.questions.map((question) => ({
      question_id: question.question_id,
      type: question.type,
      text: question.text,
      explanation: question.explanation ?? '',
      points: question.type === 'yes_no' ? String(question.points) : '1',
      correct_answer: question.type === 'yes_no' ? question.correct_answer : 'yes',
      options:
        question.type === 'multiple_choice'
          ? question.options.map((option) => ({ label: option.label, score: String(option.score) }))
          : [],
    })),
    settings: {
      show_score_to_respondent: settings.show_score_to_respondent,
      pass_mark_percent: settings.pass_mark_percent === null ? '' : String(settings.pass_mark_percent),
      collect_name: settings.collect_name,
      collect_email: settings.collect_email,
      require_all_answers: settings.require_all_answers,
      show_correct_answers: settings.show_correct_answers,
      allow_embedding: settings.allow_embedding,
      time_limit_minutes: settings.time_limit_minutes === null ? '' : String(settings.time_limit_minutes),
      opens_at: settings.opens_at ?? '',
      closes_at: settings.closes_at ?? '',
      shuffle_questions: settings.shuffle_questions,
      shuffle_options: settings.shuffle_options,
      question_pool_size: settings.question_pool_size === null ? '' : String(settings.question_pool_size),
      max_attempts_per_email:
        settings.max_attempts_per_email === null ? '' : String(settings.max_attempts_per_email),
      language: settings.language,
    },
    confirm_edit_published: false,
  };
}

const QUESTION_FIELD =
  /^questions\[(\d{1,3})\]\[(question_id|type|text|explanation|points|correct_answer)\]$/;
const OPTION_FIELD = /^questions\[(\d{1,3})\]\[options\]\[(\d{1,2})\]\[(label|score)\]$/;

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
      question = { ...newQuestion('yes_no'), points: '', options: [] };
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
      if (key === 'type') question.type = QUESTION_TYPES.find((type) => type === value) ?? 'yes_no';
      else if (key === 'correct_answer') question.correct_answer = value === 'no' ? 'no' : 'yes';
      else if (key !== 'options') question[key] = value;
      continue;
    }
    const option = OPTION_FIELD.exec(name);
    if (option && Number(option[1]) < LIMITS.questionsMax && Number(option[2]) < LIMITS.optionsMax) {
      questionAt(Number(option[1]));
      const byIndex = options.get(Number(option[1])) ?? new Map<number, DraftOption>();
      options.set(Number(option[1]), byIndex);
      const row = byIndex.get(Number(option[2])) ?? { label: '', score: '' };
      byIndex.set(Number(option[2]), row);
      row[option[3] as 'label' | 'score'] = value;
    }
  }
  const inOrder = <T>(map: Map<number, T>) => [...map.entries()].sort(([a], [b]) => a - b);
  for (const [index, byIndex] of inOrder(options)) {
    questions.get(index)!.options = inOrder(byIndex).map(([, row]) => row);
  }
  const settings = emptyDraft().settings;
  for (const key of CHECKBOXES) settings[key] = body[`settings[${key}]`] === 'on';
  settings.pass_mark_percent = text('settings[pass_mark_percent]');
  settings.show_correct_answers = text('settings[show_correct_answers]') || 'never';
  for (const key of TAKING_TEXTS) settings[key] = text(`settings[${key}]`);
  settings.language = text('settings[language]') || 'en';
  return {
    title: text('title'),
    description: text('description'),
    questions: inOrder(questions).map(([, question]) => question),
    settings,
    confirm_edit_published: body.confirm_edit_published === 'on',
  };
}

/** A whole number as a number; anything else goes to the schema as typed, which says what to fix. */
function integerOrText(value: string): number | string | undefined {
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  return /^[-+]?\d+$/.test(trimmed) ? Number(trimmed) : trimmed;
}

function questionInput(question: DraftQuestion) {
  const common = {
    type: question.type,
    ...(question.question_id ? { question_id: question.question_id } : {}),
    text: question.text,
    ...(question.explanation.trim() ? { explanation: question.explanation } : {}),
  };
  if (question.type === 'yes_no') {
    return { ...common, points: integerOrText(question.points), correct_answer: question.correct_answer };
  }
  return {
    ...common,
    options: question.options.map((option) => ({ label: option.label, score: integerOrText(option.score) })),
  };
}

const EditorInputSchema = z.strictObject({
  title: TitleSchema,
  description: DescriptionSchema,
  questions: QuestionsInputSchema,
  settings: SettingsInputSchema,
});

export type EditorInput = z.output<typeof EditorInputSchema>;

/** The draft checked by the tools' own schemas; a DomainError with one issue per field otherwise. */
export function draftToInput(draft: QuizDraft): EditorInput {
  const pass = draft.settings.pass_mark_percent.trim();
  const input = {
    title: draft.title,
    description: draft.description,
    questions: draft.questions.map(questionInput),
    settings: {
      ...Object.fromEntries(CHECKBOXES.map((key) => [key, draft.settings[key]])),
      pass_mark_percent: pass === '' ? null : Number.isFinite(Number(pass)) ? Number(pass) : pass,
      show_correct_answers: draft.settings.show_correct_answers,
      ...Object.fromEntries(
        TAKING_TEXTS.map((key) => {
          const value = draft.settings[key].trim();
          if (value === '') return [key, null];
          return [key, key.endsWith('_at') ? value : (integerOrText(value) ?? null)];
        }),
      ),
      language: draft.settings.language,
    },
  };
  return parseOrThrow(EditorInputSchema, input, 'The quiz was not saved');
}

import { z } from 'zod';
import { settingsOutputShape, type SettingsOutputShape } from '../../domain/quiz-settings';
import { unionOverTypes } from '../../domain/question-types/merge-fields';
import { ImageRecordSchema } from '../../domain/question-types/shared-fields';

/** Argument and record schemas shared by several tools. */
/** The one confirmation every tool that changes a published quiz's questions asks for. */
export const ConfirmEditPublishedSchema = z
  .boolean({ error: 'confirm_edit_published must be true or false' })
  .optional()
  .describe('Must be true to change a published quiz.');

export const QuizRefSchema = z
  .string({ error: 'quiz_id must be a string: the quiz ID, slug or title' })
  .trim()
  // Checked, not listed: "not empty" and a bound no real ID, slug or title comes near tell a model nothing.
  .refine((ref) => ref.length > 0, { error: 'quiz_id must not be empty: pass the quiz ID, slug or title' })
  .refine((ref) => ref.length <= 300, { error: 'quiz_id is too long: pass the quiz ID, slug or title' })
  .describe('ID, slug or title.');

// Read tools state their defaults in words and apply them in code: no `default` keyword to repeat them.
export const LimitSchema = z
  .number({ error: 'limit must be a whole number from 1 to 100' })
  .int({ error: 'limit must be a whole number from 1 to 100' })
  .min(1, { error: 'limit must be at least 1' })
  .max(100, { error: 'limit must be at most 100' })
  .optional()
  .describe('Page size (default 20).');

export const CursorSchema = z
  .string({ error: 'cursor must be a string: the next_cursor of a previous answer' })
  .refine((cursor) => cursor.length <= 500, {
    error: 'cursor is too long: pass the next_cursor of a previous answer',
  })
  .optional()
  .describe('A previous next_cursor.');

/**
 * The lean answer an assistant's loop needs, asked for by name: without it a tool answers as it
 * always has, since today's clients read those fields.
 */
export const ReplySchema = z
  .enum(['brief'], { error: 'reply must be "brief", or left out for the whole answer' })
  .optional()
  .describe('Send "brief".');

export const StatusSchema = z.enum(['draft', 'published']);
const timestamp = z.string().describe('ISO-8601 timestamp');

const explanation = z.string().nullable().describe('Why the right answer is right; null when none.');

export { ImageRecordSchema };
const questionHead = { question_id: z.string(), text: z.string(), image: ImageRecordSchema, explanation };

/** A question as the tools return it: its own fields, then its type's (each type's fields.ts). */
export const QuestionRecordSchema = unionOverTypes(questionHead, 'record');

export const QuizSummarySchema = z.object({
  quiz_id: z.string().describe('The quiz ID.'),
  slug: z.string().describe('URL name of the quiz: its public page is /q/{slug} once published.'),
  title: z.string(),
  status: StatusSchema,
});

export const QuizWithQuestionsSchema = QuizSummarySchema.extend({
  description: z.string().nullable().describe('Plain text shown above the questions; null when none.'),
  public_url: z.string().nullable().describe('Public page for respondents; null while a draft.'),
  question_count: z.number().int(),
  max_score: z.number().int(),
  updated_at: timestamp,
  questions: z.array(QuestionRecordSchema),
});

/** Where the quiz stands, then every setting of the table (domain/quiz-settings.ts) in its order. */
const { accepting_responses, ...howItWorks } = settingsOutputShape('how');
export const SettingsRecordSchema = QuizSummarySchema.extend({
  published_at: timestamp.nullable(),
  public_url: z.string().nullable(),
  accepting_responses: accepting_responses!,
  question_count: z.number().int(),
  max_score: z.number().int(),
  ...(howItWorks as Omit<SettingsOutputShape, 'accepting_responses'>),
  is_open: z.boolean().describe('Published, accepting responses and inside its opens_at/closes_at window.'),
  ...(settingsOutputShape('taking') as Omit<SettingsOutputShape, 'accepting_responses'>),
  created_at: timestamp,
  updated_at: timestamp,
});

export { timestamp };

/** Allowed but probably not meant (domain/quizzes/quiz-warnings.ts); never an error. */
export const WarningsSchema = z
  .array(
    z.object({
      code: z.string(),
      // Null when the warning is about the whole quiz.
      question_id: z.string().nullable(),
      field: z.string(),
      message: z.string(),
    }),
  )
  .describe('Likely mistakes, not errors.');

/*
 * What tools/list publishes of the answers (`listedOutput`): the shape and the fields a model
 * reads, each named once. The answers carry more (timestamps, counts the view draws), and the
 * schemas above, from which the view's types derive, describe all of it.
 */
export const QUESTION_TYPES = QuestionRecordSchema.options.map((option) => option.shape.type.value) as [
  string,
  ...string[],
];

export const ListedQuestionSchema = z.object({
  question_id: z.string(),
  // The types are create_quiz's input to name; an answer only carries one of them.
  type: z.string(),
  text: z.string(),
  explanation: z.string().nullable(),
  // Which types carry which key: create_quiz's input says it, once.
  points: z.number(),
  correct_answer: z.string(),
  options: z.array(z.object({ label: z.string(), score: z.number() })),
  accepted_answers: z.array(z.string()),
  correct_number: z.number(),
  tolerance: z.number(),
  // The other types' fields by their type alone: create_quiz's input describes them.
  items: z.array(z.unknown()),
  points_per_item: z.number().nullable(),
  blanks: z.array(z.unknown()),
  // A matching question's fields (pairs, extra_matches, points_per_pair) go unnamed: create_quiz's
  // input names them, and every tool that returns questions would list them again.
  scale_min: z.number(),
  scale_max: z.number(),
  scale_labels: z.array(z.unknown()),
  rubric: z.array(z.unknown()),
  min_words: z.number().nullable(),
  max_words: z.number().nullable(),
});

export const ListedQuizSchema = z.object({
  quiz_id: z.string(),
  slug: z.string(),
  title: z.string(),
  // Its values are list_quizzes' status filter's; the other answers list it as a string too.
  status: z.string(),
  public_url: z.string().nullable(),
  max_score: z.number(),
});

export const ListedQuizWithQuestionsSchema = ListedQuizSchema.extend({
  description: z.string().nullable(),
  question_count: z.number(),
  updated_at: z.string(),
  questions: z.array(ListedQuestionSchema),
});

/** Warnings as tools/list names them; the output schemas describe them. */
export const ListedWarningsSchema = z.array(
  z.object({
    code: z.string(),
    question_id: z.string().nullable(),
    field: z.string().nullable(),
    message: z.string(),
  }),
);

/**
 * The fields of a question every type has. A quiz just written answers each question as
 * get_quiz_questions does; the fields of one type or another are named in that tool's listing,
 * not again in create_quiz's and update_quiz's.
 */
export const QUESTION_FIELDS_NAMED_IN_EVERY_LISTING = [
  'question_id',
  'type',
  'text',
  'explanation',
  'points',
] as const;

/** The zoned times a call read, by their fields' types. */
export const ListedTimesReadSchema = z.array(
  z.object({ field: z.string(), utc: z.string(), local: z.string(), time_zone: z.string() }),
);

/** What a model reads of a quiz it has just written: where it is, and the new question ids. */
export const ListedQuizWrittenSchema = ListedQuizWithQuestionsSchema.extend({
  questions: z.array(
    ListedQuestionSchema.pick(
      Object.fromEntries(QUESTION_FIELDS_NAMED_IN_EVERY_LISTING.map((field) => [field, true])) as Record<
        (typeof QUESTION_FIELDS_NAMED_IN_EVERY_LISTING)[number],
        true
      >,
    ),
  ),
  warnings: ListedWarningsSchema,
  times: ListedTimesReadSchema,
});

/** A date and time as a caller writes it; read by domain/time-zone.ts, which explains a bad one. */
export const localTime = (field: string) =>
  z
    .string({ error: `${field} must be a date and time such as 2026-11-27T18:00` })
    // Checked, not listed, as quiz_id's bound is.
    .refine((text) => text.length <= 40, {
      error: `${field} is too long: send a date and time such as 2026-11-27T18:00`,
    });

export const TimeZoneSchema = z
  .string({ error: 'timezone must be an IANA time zone name such as Europe/Paris' })
  .refine((zone) => zone.length <= 64, {
    error: 'timezone is too long: send an IANA name such as Europe/Paris',
  })
  .optional()
  .describe('IANA zone for offset-less times (default: yours).');

export const ZonedTimeSchema = z.object({ utc: z.string(), local: z.string(), time_zone: z.string() });

/** The settings times a create_quiz or update_quiz call read in a zone (sent without an offset). */
export const TimesReadSchema = z
  .array(ZonedTimeSchema.extend({ field: z.enum(['opens_at', 'closes_at']) }))
  .optional()
  .describe('Settings times sent without an offset, as read: UTC and local.');

/** WarningsSchema's items, for warnings about the quiz itself too (question_id null). */
export const QuizLevelWarningsSchema = z
  .array(
    z.object({
      code: z.string(),
      question_id: z.string().nullable(),
      field: z.string().nullable(),
      message: z.string(),
    }),
  )
  .describe('What the call did that was not asked for, e.g. past_time_cleared.');

/** A signed link and when it expires, as get_quiz_links and get_results answer it. */
export const SignedLinkSchema = z.object({ url: z.string(), expires_at: z.string() });

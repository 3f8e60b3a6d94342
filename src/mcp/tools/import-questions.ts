import { z } from 'zod';
import { BANK_FORMATS, IMPORT_FORMATS } from '../../domain/import/bank';
import { IMPORT_TEXT_MAX, importQuestions } from '../../domain/import/import-questions';
import { TitleSchema } from '../../domain/quiz-input';
import { defineTool } from '../tool';
import { QuizRefSchema, StatusSchema } from './common';

const NoteSchema = z.object({
  n: z.number().describe('Its place in the file, from 1.'),
  at: z.string().describe('Its line or element.'),
  from: z.string().describe("The source's type."),
  type: z.string().nullable().describe('What it becomes; null: nothing here.'),
  text: z.string(),
  lost: z.array(z.string()).optional().describe('What the source holds that the question will not.'),
  changed: z.array(z.string()).optional().describe('How the import rewrote its texts.'),
  regraded: z.array(z.string()).optional().describe('Scores the scoring rule changed.'),
  problems: z.array(z.string()).optional().describe('Why it cannot be imported.'),
});

const ImportedQuizSchema = z.object({
  quiz_id: z.string(),
  slug: z.string(),
  title: z.string(),
  status: StatusSchema,
  question_count: z.number(),
});

export const importQuestionsTool = defineTool({
  name: 'import_questions',
  title: 'Import questions',
  description:
    'Imports a bank (GIFT, Aiken, Moodle XML, CSV) into a new or draft quiz, all or nothing; ' +
    'dry_run: true first, show the preview.',
  input: z.strictObject({
    text: z
      .string({ error: 'text must be a string: the bank as pasted text' })
      .min(1, { error: 'text must not be empty: paste the questions' })
      .max(IMPORT_TEXT_MAX, {
        error: (issue) =>
          `text is too long: at most ${IMPORT_TEXT_MAX} characters (got ${String((issue.input as string).length)}): import it in parts`,
      })
      .optional()
      .describe('Pasted bank.'),
    upload_id: z
      .string({ error: 'upload_id must be a string: the id an upload link answered' })
      .optional()
      .describe("Or an upload's id."),
    format: z
      .enum(IMPORT_FORMATS, { error: `format must be one of ${IMPORT_FORMATS.join(', ')}` })
      .optional()
      .describe('Else detected.'),
    title: TitleSchema.optional().describe("New draft's title."),
    quiz_id: QuizRefSchema.optional().describe('Or a draft to add to.'),
    dry_run: z.boolean().optional().describe('Preview; stores nothing.'),
    split: z.boolean().optional().describe('Over 100: several quizzes.'),
    skip_unusable: z.boolean().optional().describe('Skip what cannot be.'),
    page: z.number().int().min(1).optional().describe('Notes page.'),
  }),
  output: z.object({
    dry_run: z.boolean(),
    format: z.enum(BANK_FORMATS),
    question_count: z.number(),
    importable: z.number(),
    not_importable: z.number(),
    types: z.record(z.string(), z.number()).describe('Importable questions by type.'),
    points_per_grade: z
      .number()
      .describe('The scoring rule\'s scale (API reference, "Importing questions").'),
    lost: z.record(z.string(), z.number()).describe('How many questions lose each kind of thing.'),
    changed: z.record(z.string(), z.number()).optional(),
    regraded: z.number(),
    quizzes_needed: z.number(),
    notes: z.array(NoteSchema).describe('Questions with something to say, one page.'),
    page: z.number(),
    pages: z.number(),
    file_problems: z.array(z.string()).optional(),
    quizzes: z.array(ImportedQuizSchema).describe('The quizzes written; none on a dry run.'),
    message: z.string(),
  }),
  listedOutput: z.object({
    quizzes: z.array(z.object({ quiz_id: z.string() })),
    notes: z.array(z.object({ n: z.number(), problems: z.array(z.string()) })),
    message: z.string(),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  scope: 'quizzes:write',
  toolset: 'import',
  run: (args, { deps, principal }) =>
    importQuestions(deps, principal.userId, {
      text: args.text,
      uploadId: args.upload_id,
      format: args.format,
      title: args.title,
      quizRef: args.quiz_id,
      dryRun: args.dry_run,
      split: args.split,
      skipUnusable: args.skip_unusable,
      page: args.page,
    }),
});

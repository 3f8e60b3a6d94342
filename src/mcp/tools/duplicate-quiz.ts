import { z } from 'zod';
import { duplicateAndClose, duplicateQuiz } from '../../domain/quizzes/duplicate-quiz';
import { LANGUAGES, TitleSchema } from '../../domain/quiz-input';
import { defineTool } from '../tool';
import { mayRead } from '../write-only-answer';
import { ListedWarningsSchema, QuizLevelWarningsSchema, QuizRefSchema } from './common';

export const duplicateQuizTool = defineTool({
  name: 'duplicate_quiz',
  title: 'Duplicate a quiz',
  description:
    'Copies a quiz into a new draft: questions and settings, not responses or webhooks. Past opening/closing times are cleared.',
  input: z.strictObject({
    quiz_id: QuizRefSchema,
    title: TitleSchema.optional().describe('Default: the title + " (copy)".'),
    language: z
      .enum(LANGUAGES, { error: `language must be one of ${LANGUAGES.join(', ')}` })
      .optional()
      .describe("Default: the original's."),
    close_original: z
      .boolean({ error: 'close_original must be true or false' })
      .optional()
      .describe('True: also close the original now.'),
  }),
  output: z.object({
    quiz_id: z.string().describe('The new draft.'),
    slug: z.string(),
    title: z.string(),
    status: z.literal('draft'),
    language: z.string(),
    question_count: z.number().int(),
    duplicated_from: z.object({ quiz_id: z.string(), title: z.string() }),
    warnings: QuizLevelWarningsSchema,
    original_closed: z
      .object({ is_open: z.boolean(), in_progress_attempts: z.number().int() })
      .optional()
      .describe('With close_original.'),
  }),
  listedOutput: z.object({
    quiz_id: z.string(),
    slug: z.string(),
    title: z.string(),
    status: z.string(),
    language: z.string(),
    question_count: z.number(),
    duplicated_from: z.object({ quiz_id: z.string(), title: z.string() }),
    warnings: ListedWarningsSchema,
    original_closed: z.object({ is_open: z.boolean(), in_progress_attempts: z.number() }).optional(),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  scope: 'quizzes:write',
  toolset: 'grading',
  run: async (args, { deps, principal }) => {
    const input = {
      ref: args.quiz_id,
      title: args.title,
      language: args.language,
      mayRead: mayRead(principal),
    };
    if (!args.close_original) return duplicateQuiz(deps, principal.userId, input);
    const { copy, closed } = await duplicateAndClose(deps, principal.userId, input);
    return {
      ...copy,
      original_closed: { is_open: closed.is_open, in_progress_attempts: closed.in_progress_attempts },
    };
  },
});

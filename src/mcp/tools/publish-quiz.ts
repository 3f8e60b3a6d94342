import { z } from 'zod';
import { publishQuiz } from '../../domain/quizzes/publish-quiz';
import { defineTool } from '../tool';
import { ListedWarningsSchema, QuizRefSchema, timestamp, WarningsSchema } from './common';

export const publishQuizTool = defineTool({
  name: 'publish_quiz',
  title: 'Publish a quiz',
  description: 'Publishes one of your draft quizzes (it needs a question); returns its public link.',
  input: z.strictObject({ quiz_id: QuizRefSchema }),
  output: z.object({
    quiz_id: z.string(),
    slug: z.string(),
    title: z.string(),
    status: z.literal('published'),
    published_at: timestamp.nullable(),
    public_url: z.string().nullable(),
    already_published: z.boolean(),
    message: z.string(),
    warnings: WarningsSchema,
  }),
  listedOutput: z.object({
    quiz_id: z.string(),
    slug: z.string(),
    title: z.string(),
    status: z.string(),
    published_at: z.string().nullable(),
    public_url: z.string().nullable(),
    already_published: z.boolean(),
    message: z.string(),
    warnings: ListedWarningsSchema,
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  scope: 'quizzes:write',
  run: (args, { deps, principal }) => publishQuiz(deps, principal.userId, args.quiz_id),
});

import { z } from 'zod';
import { getQuizSettings } from '../../domain/quizzes/get-quiz';
import { settingsOutputShape, type SettingsOutputShape } from '../../domain/quiz-settings';
import { defineTool, READ_ONLY } from '../tool';
import { ListedQuizSchema, QuizRefSchema, SettingsRecordSchema } from './common';

export const getQuizSettingsTool = defineTool({
  name: 'get_quiz_settings',
  title: 'Get quiz settings',
  description: "One of your quizzes' settings; update_quiz's `settings` changes them.",
  input: z.strictObject({ quiz_id: QuizRefSchema }),
  output: SettingsRecordSchema.extend({
    webhook_endpoints: z
      .number()
      .int()
      .describe("Enabled webhook endpoints receiving this quiz's events; managed on the dashboard."),
  }),
  // Every setting of the table, as the answer gives it; the input schemas describe them.
  listedOutput: ListedQuizSchema.extend({
    published_at: z.string().nullable(),
    public_url: z.string().nullable(),
    question_count: z.number().int(),
    ...(settingsOutputShape() as SettingsOutputShape),
    is_open: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
    webhook_endpoints: z.number().int(),
  }),
  annotations: READ_ONLY,
  scope: 'quizzes:read',
  run: (args, { deps, principal }) => getQuizSettings(deps, principal.userId, args.quiz_id),
});

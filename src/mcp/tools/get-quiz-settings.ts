import { z } from 'zod';
import { getQuizSettings } from '../../domain/quizzes/get-quiz';
import { defineTool, READ_ONLY } from '../tool';
import { ListedQuizSchema, QuizRefSchema, SettingsRecordSchema } from './common';

export const getQuizSettingsTool = defineTool({
  name: 'get_quiz_settings',
  title: 'Get quiz settings',
  description:
    "One of your quizzes' settings: publication, link, whether it takes responses, pass mark, " +
    "what respondents enter and see, how it is taken, webhook count. update_quiz's `settings` changes them.",
  input: z.strictObject({ quiz_id: QuizRefSchema }),
  output: SettingsRecordSchema.extend({
    webhook_endpoints: z
      .number()
      .int()
      .describe("Enabled webhook endpoints receiving this quiz's events; managed on the dashboard."),
  }),
  listedOutput: ListedQuizSchema.extend({
    accepting_responses: z.boolean(),
    show_score_to_respondent: z.boolean(),
    pass_mark_percent: z.number().nullable(),
    collect_name: z.boolean(),
    collect_email: z.boolean(),
    require_all_answers: z.boolean(),
    show_correct_answers: z.string(),
    is_open: z.boolean(),
    webhook_endpoints: z.number().int(),
  }),
  annotations: READ_ONLY,
  scope: 'quizzes:read',
  run: (args, { deps, principal }) => getQuizSettings(deps, principal.userId, args.quiz_id),
});

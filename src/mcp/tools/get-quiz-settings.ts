import { z } from 'zod';
import { getQuizSettings } from '../../domain/quizzes/get-quiz';
import { defineTool, READ_ONLY } from '../tool';
import { QuizRefSchema, SettingsRecordSchema } from './common';

export const getQuizSettingsTool = defineTool({
  name: 'get_quiz_settings',
  title: 'Get quiz settings',
  description:
    'Returns the settings of one of your quizzes: status, publication date and public link, whether it accepts ' +
    'responses, pass mark, what respondents must enter (name, email), whether every question must be answered, ' +
    'whether respondents see their score, plus question count and maximum score. Change them with the `settings` ' +
    'argument of update_quiz.',
  input: z.strictObject({ quiz_id: QuizRefSchema }),
  output: SettingsRecordSchema,
  annotations: READ_ONLY,
  scope: 'quizzes:read',
  run: (args, { deps, principal }) => getQuizSettings(deps, principal.userId, args.quiz_id),
});

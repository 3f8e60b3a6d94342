import { z } from 'zod';
import { getQuizQuestions } from '../../domain/quizzes/get-quiz';
import { defineTool, READ_ONLY } from '../tool';
import { ListedQuizWithQuestionsSchema, QuizRefSchema, QuizWithQuestionsSchema } from './common';

export const getQuizQuestionsTool = defineTool({
  name: 'get_quiz_questions',
  title: 'Get quiz questions',
  description:
    'Returns one of your quizzes with its description and its questions in order, answer keys and explanations included.',
  input: z.strictObject({ quiz_id: QuizRefSchema }),
  output: QuizWithQuestionsSchema,
  listedOutput: ListedQuizWithQuestionsSchema,
  annotations: READ_ONLY,
  scope: 'quizzes:read',
  view: true,
  run: (args, { deps, principal }) => getQuizQuestions(deps, principal.userId, args.quiz_id),
});

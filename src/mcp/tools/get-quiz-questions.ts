import { z } from 'zod';
import { getQuizQuestions } from '../../domain/quizzes/get-quiz';
import { defineTool, READ_ONLY } from '../tool';
import { QuizRefSchema, QuizWithQuestionsSchema } from './common';

export const getQuizQuestionsTool = defineTool({
  name: 'get_quiz_questions',
  title: 'Get quiz questions',
  description:
    'Returns one of your quizzes with its description and its questions in order, each with its question_id, type, ' +
    'text, explanation, and its points and correct_answer (yes_no) or options with scores (multiple_choice).',
  input: z.strictObject({ quiz_id: QuizRefSchema }),
  output: QuizWithQuestionsSchema,
  annotations: READ_ONLY,
  scope: 'quizzes:read',
  view: true,
  run: (args, { deps, principal }) => getQuizQuestions(deps, principal.userId, args.quiz_id),
});

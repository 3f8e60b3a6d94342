import { z } from 'zod';

/**
 * Something a write did that the caller may not have meant, answered next to its result: the
 * write happened, nothing is refused. `question_id` names the question (null when the warning is
 * about the quiz), `field` the argument path that caused it.
 */
export interface QuizWarning {
  code: string;
  question_id: string | null;
  field: string;
  message: string;
}

export const QuizWarningSchema = z.object({
  code: z.string(),
  question_id: z.string().nullable(),
  field: z.string(),
  message: z.string(),
});

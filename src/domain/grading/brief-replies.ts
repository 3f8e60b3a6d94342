import type { GradeOutcome } from './grade-answers';

/** What grade_answers answers, with whatever the tool added (the grading page, an approval). */
export interface GradedCall {
  quiz_id: string;
  grades: readonly GradeOutcome[];
  finalized_responses: string[];
  message: string;
}

/** Whether a tool's answer is grades stored, not a question put to the teacher. */
export const isGradedCall = (answer: object): answer is GradedCall =>
  Array.isArray((answer as Partial<GradedCall>).grades);

/**
 * grade_answers' brief reply: what was stored, counted, and per answer its id, state and points;
 * not the grades sent back. The message says once why they were stored so; only an answer left
 * unchanged keeps its own note, since its reason is its own.
 */
export function briefGrades<T extends GradedCall>(call: T) {
  const { quiz_id, grades, ...rest } = call;
  const count = (stored: GradeOutcome['stored']) => grades.filter((g) => g.stored === stored).length;
  return {
    quiz_id,
    counts: { final: count('final'), proposed: count('proposed'), unchanged: count('unchanged') },
    grades: grades.map((grade) => ({
      answer_id: grade.answer_id,
      stored: grade.stored,
      points: grade.points,
      ...(grade.stored === 'unchanged' ? { note: grade.note } : {}),
    })),
    ...rest,
  };
}

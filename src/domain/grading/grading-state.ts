/**
 * Where a response stands with its grades by a person, from its answers': "pending" while an
 * answer waits for a grade, "proposed" once every such answer has a grade waiting for the owner's
 * approval (or some of them), "final" once every answer is graded; null when no answer is graded
 * by a person (every answer marked by its type's rule). The stored `gradingStatus`
 * says only pending or final: a proposal changes no score, so it stays pending until approved.
 */
export type ResponseGradingState = 'pending' | 'proposed' | 'final';

export function gradingStateOf(response: {
  gradingStatus: string;
  answers: ReadonlyArray<{ gradeState: string | null }>;
}): ResponseGradingState | null {
  // Every answer marked by its type's rule: nothing for a person to grade.
  if (response.answers.every((answer) => answer.gradeState === null)) return null;
  if (response.gradingStatus !== 'pending') return 'final';
  if (response.answers.some((answer) => answer.gradeState === 'pending')) return 'pending';
  return response.answers.some((answer) => answer.gradeState === 'proposed') ? 'proposed' : 'pending';
}

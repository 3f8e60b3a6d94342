import { optionsBreakdown, optionsKey, type ResultsFace } from '../../../dashboard/question-results-face';

/** The best option to choose is the right one (none when no option earns points). */
const bestOf = (question: { options: ReadonlyArray<{ score: number }> }) => {
  const best = Math.max(...question.options.map((option) => option.score));
  return (score: number) => score === best && best > 0;
};

/** Its part of the results page (dashboard/question-results-faces.ts). */
export const face: ResultsFace<'multiple_choice'> = {
  type: 'multiple_choice',
  name: 'Multiple choice',
  breakdown: (question, stat, answered, rich) =>
    optionsBreakdown(question, stat?.type === 'multiple_choice' ? stat.options : [], answered, rich, {
      counted: 'Chosen',
      right: bestOf(question),
    }),
  answerKey: (question, rich) => optionsKey(question, rich, bestOf(question)),
};

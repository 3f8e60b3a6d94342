import { optionsBreakdown, optionsKey, type ResultsFace } from '../../../dashboard/question-results-face';

/** Every option that earns points when ticked is a right one. */
const earns = (score: number) => score > 0;

/** Its part of the results page (dashboard/question-results-faces.ts). */
export const face: ResultsFace<'multiple_select'> = {
  type: 'multiple_select',
  name: 'Tick all that apply',
  breakdown: (question, stat, answered, rich) =>
    optionsBreakdown(question, stat?.type === 'multiple_select' ? stat.options : [], answered, rich, {
      counted: 'Ticked',
      right: earns,
    }),
  answerKey: (question, rich) => optionsKey(question, rich, earns),
};

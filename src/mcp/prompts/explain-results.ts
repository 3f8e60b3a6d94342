import { completeQuizRef } from '../complete-quiz-ref';
import { definePrompt, userMessage, type Completer } from '../prompt';

const FOCUS = ['summary', 'hardest questions', 'each respondent'] as const;
const completeFocus: Completer = async (value) =>
  FOCUS.filter((focus) => focus.startsWith(value.trim().toLowerCase()));

export const explainResultsPrompt = definePrompt({
  name: 'explain_results',
  title: 'Explain quiz results',
  description: "Explains one of your quizzes' results to you: the summary first, then what stands out.",
  arguments: {
    quiz_id: { description: 'The quiz ID, slug or title.', required: true, complete: completeQuizRef },
    focus: { description: 'summary, hardest questions, or each respondent.', complete: completeFocus },
  },
  async get({ quiz_id: ref = '', focus }) {
    return {
      description: `Explain the results of ${ref}.`,
      messages: [
        userMessage(
          [
            `Explain the results of my quiz ${JSON.stringify(ref)}: call get_results with quiz_id ${JSON.stringify(ref)}.`,
            'Start with the summary: how many responded, the average, the pass rate.',
            'Then the questions most often missed, and what that suggests about the wording or the subject.',
            focus ? `Focus on: ${focus}.` : 'Mention respondents only where it helps.',
            'If there are more responses than one page, say so rather than guessing.',
          ].join('\n'),
        ),
      ],
    };
  },
});

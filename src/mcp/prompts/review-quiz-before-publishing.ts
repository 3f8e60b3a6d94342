import { getQuizQuestions } from '../../domain/quizzes/get-quiz';
import { completeQuizRef } from '../complete-quiz-ref';
import { definePrompt, userMessage } from '../prompt';
import { quizDocument } from '../quiz-resource';

export const reviewQuizBeforePublishingPrompt = definePrompt({
  name: 'review_quiz_before_publishing',
  title: 'Review a quiz before publishing',
  description:
    'Checks one of your quizzes (answer keys, wording, explanations, settings) before it goes public.',
  arguments: {
    quiz_id: { description: 'The quiz ID, slug or title.', required: true, complete: completeQuizRef },
  },
  scope: 'quizzes:read',
  async get({ quiz_id: ref = '' }, { deps, principal }) {
    const quiz = await getQuizQuestions(deps, principal.userId, ref);
    return {
      description: `Review "${quiz.title}" before publishing.`,
      messages: [
        userMessage(
          [
            `Review my quiz "${quiz.title}" (attached) before I publish it:`,
            "- Is each question's answer key right, and does each explanation support it?",
            '- Is any question ambiguous, leading, or answerable without knowing the subject?',
            '- Are the points fair, and the settings (pass mark, what respondents see) what I want?',
            'List the problems with a suggested fix each. Change nothing until I agree; then use update_quiz, ' +
              'keeping each question_id, and publish_quiz only when I say so.',
          ].join('\n'),
        ),
        { role: 'user', content: { type: 'resource', resource: quizDocument(quiz) } },
      ],
    };
  },
});

import { definePrompt, userMessage, type Completer } from '../prompt';

const startingWith =
  (choices: readonly string[]): Completer =>
  async (value) =>
    choices.filter((choice) => choice.startsWith(value.trim().toLowerCase()));

export const quizFromMaterialPrompt = definePrompt({
  name: 'quiz_from_material',
  title: 'Quiz from material',
  description: 'Turns pasted material (notes, an article, a lesson) into a draft quiz with create_quiz.',
  arguments: {
    material: { description: 'The text to quiz on.', required: true },
    question_count: {
      description: 'How many questions (default 10).',
      complete: startingWith(['5', '10', '15', '20']),
    },
    question_types: {
      description: 'yes_no, multiple_choice, or mixed (default).',
      complete: startingWith(['mixed', 'multiple_choice', 'yes_no']),
    },
  },
  async get({ material, question_count: count = '10', question_types: types = 'mixed' }) {
    return {
      description: 'Write a draft quiz from the material.',
      messages: [
        userMessage(
          [
            `Write a quiz of about ${count} questions (${types}) on the material below, then create it with create_quiz.`,
            '- Ask only what the material states; one idea per question; no trick wording.',
            '- Give every question an explanation that quotes or points to the material.',
            '- multiple_choice: one right option scoring points, plausible wrong options scoring 0.',
            '- Give the quiz a short title and a one-line description.',
            'Show me the quiz_id and the questions, and ask before publishing it with publish_quiz.',
            '',
            'Material:',
            material ?? '',
          ].join('\n'),
        ),
      ],
    };
  },
});

import { QUESTION_TYPE_DEFINITIONS } from '../../domain/question-types';
import { definePrompt, userMessage, type Completer } from '../prompt';

/** The types offered as a style of question, each with its tip (the types' own modules). */
const STYLES = QUESTION_TYPE_DEFINITIONS.flatMap((definition) =>
  definition.fromMaterial ? [{ name: definition.name, fromMaterial: definition.fromMaterial }] : [],
);

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
      description: `${STYLES.map((style) => style.name).join(', ')}, or mixed (default).`,
      complete: startingWith(['mixed', ...STYLES.map((style) => style.name)]),
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
            ...STYLES.flatMap(({ name, fromMaterial }) =>
              fromMaterial.tip ? [`- ${name}: ${fromMaterial.tip}`] : [],
            ),
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

import { IMPORT_FORMATS } from '../../domain/import/bank';
import { IMPORT_TEXT_MAX } from '../../domain/import/import-questions';
import { LIMITS } from '../../domain/limits';
import { definePrompt, userMessage } from '../prompt';

export const importMyQuestionBankPrompt = definePrompt({
  name: 'import_my_question_bank',
  title: 'Import my question bank',
  description:
    'Brings questions exported from Moodle or another tool (GIFT, Aiken, Moodle XML, CSV) into a draft quiz with import_questions.',
  arguments: {
    bank: { description: 'The exported questions, pasted as text.', required: true },
    title: { description: 'The new quiz title (default: ask me).' },
    format: {
      description: `${IMPORT_FORMATS.join(', ')} (default: detected).`,
      complete: async (value) =>
        IMPORT_FORMATS.filter((format) => format.startsWith(value.trim().toLowerCase())),
    },
  },
  async get({ bank, title, format }) {
    const formatArgument = format ? `, format: "${format}"` : '';
    return {
      description: 'Import a question bank, previewing it first.',
      messages: [
        userMessage(
          [
            'Import the question bank below into a draft quiz with import_questions. Steps:',
            `1. Call import_questions with the text${formatArgument} and dry_run: true. Nothing is stored yet.`,
            '2. Show me the preview briefly: how many questions, the types they become, what is lost ' +
              '(feedback per option, images, penalties), which scores the scoring rule rounded (points_per_grade), ' +
              'and each question that cannot be imported with its line and why. Fetch further pages of notes with page if I ask.',
            `3. If it holds more than ${LIMITS.questionsMax} importable questions, ask whether to split it into several quizzes (split: true).`,
            `4. Ask me to confirm, then call import_questions again without dry_run, with title${title ? ` "${title}"` : ' (ask me for one)'}, ` +
              'and skip_unusable: true only if I agree to leave out the questions that cannot be imported.',
            '5. Give me the quiz_id of each quiz made; do not publish anything.',
            `If the text is longer than ${IMPORT_TEXT_MAX} characters, or the bank is a file, ask get_quiz_links for its upload link, ` +
              'have me (or a script) POST the file there, and send the upload_id it answers in place of the text.',
            '',
            'The bank:',
            bank ?? '',
          ].join('\n'),
        ),
      ],
    };
  },
});

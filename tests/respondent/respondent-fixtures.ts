// Shared set-up for the respondent tests: quizzes made and published the way an assistant does
// it (over MCP with the SDK's AnyClient), and answers shaped for the form and the JSON API.
import { sampleQuestions } from '../helpers/test-app';
import { callTool, payload, type AnyClient } from '../helpers/mcp-clients';

export interface PublishedQuiz {
  quiz_id: string;
  slug: string;
  title: string;
  questions: Array<{ question_id: string; type: string; text: string }>;
}

/** create_quiz then publish_quiz; returns the quiz as create_quiz described it. */
export async function createPublishedQuiz(
  client: AnyClient,
  title: string,
  options: { questions?: unknown[]; settings?: Record<string, unknown>; publish?: boolean } = {},
): Promise<PublishedQuiz> {
  const quiz = payload<PublishedQuiz>(
    await callTool(client, 'create_quiz', {
      title,
      questions: options.questions ?? sampleQuestions(),
      ...(options.settings ? { settings: options.settings } : {}),
    }),
  );
  if (options.publish !== false) payload(await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id }));
  return quiz;
}

/** The form body for sampleQuestions(): yes/no value and option index by question. */
export function sampleForm(
  quiz: PublishedQuiz,
  fields: { yes?: string; option?: string; name?: string; email?: string } = {},
) {
  const [yesNo, choice] = quiz.questions;
  const form: Record<string, string> = {};
  if (fields.name !== undefined) form.name = fields.name;
  if (fields.email !== undefined) form.email = fields.email;
  if (fields.yes !== undefined) form[`q_${yesNo!.question_id}`] = fields.yes;
  if (fields.option !== undefined) form[`q_${choice!.question_id}`] = fields.option;
  return form;
}

/** The JSON API answers for sampleQuestions(). */
export function sampleAnswers(quiz: PublishedQuiz, yes: 'yes' | 'no' = 'yes', option = 0) {
  const [yesNo, choice] = quiz.questions;
  return [
    { question_id: yesNo!.question_id, answer: yes },
    { question_id: choice!.question_id, option_index: option },
  ];
}

/**
 * Raw HTML without the whitespace next to tags (the templates are laid out by Prettier), so
 * assertions read `<label ...><input ...><span>Yes</span></label>` whatever the source layout.
 * Escaping is untouched: this only removes whitespace.
 */
export function flatHtml(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/\s*(\/)?>\s*/g, '>')
    .replace(/\s+</g, '<');
}

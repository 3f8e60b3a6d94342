import type { FieldIssue } from '../domain/errors';
import type { QuizWithQuestions } from '../db/repositories';
import {
  issueQuestionId,
  type SubmitResponseInput,
  type SubmittedAnswer,
} from '../domain/results/validate-submission';

/**
 * The quiz form's field names and the mapping between the form and a submission:
 * `name`, `email`, `version` (the quiz version the page was rendered from) and one
 * `q_<question_id>` per question whose value is "yes"/"no" or the 0-based option index.
 */
export interface FormValues {
  name: string;
  email: string;
  /** Raw value by question id, only for questions the person answered. */
  answers: ReadonlyMap<string, string>;
  version: string | undefined;
}

export interface FormErrors {
  /** In page order, each linking to the control it concerns. */
  summary: Array<{ href: string; message: string }>;
  /** By field key: `name`, `email`, or a question id. */
  fields: ReadonlyMap<string, string>;
}

export const EMPTY_VALUES: FormValues = { name: '', email: '', answers: new Map(), version: undefined };

export const fieldName = (questionId: string) => `q_${questionId}`;
/** The first radio of a question: where an error summary link lands. */
export const firstInputId = (questionId: string) => `q_${questionId}_0`;
export const errorId = (key: string) => `error-${key}`;
export const NAME_ID = 'respondent-name';
export const EMAIL_ID = 'respondent-email';

// Only single string values count: a repeated field (an array) is tampering and reads as unanswered.
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

export function readFormValues(quiz: QuizWithQuestions, body: Record<string, unknown>): FormValues {
  const answers = new Map<string, string>();
  for (const question of quiz.questions) {
    const value = text(body[fieldName(question.id)]);
    if (value !== '') answers.set(question.id, value);
  }
  const version = text(body.version);
  return { name: text(body.name), email: text(body.email), answers, version: version || undefined };
}

/** The submission the domain validates: values pass through unchecked, so it names every problem. */
export function toSubmission(quiz: QuizWithQuestions, values: FormValues): SubmitResponseInput {
  const answers = quiz.questions.flatMap((question): SubmittedAnswer[] => {
    const value = values.answers.get(question.id);
    if (value === undefined) return [];
    if (question.type === 'yes_no') return [{ question_id: question.id, answer: value }];
    return [{ question_id: question.id, option_index: /^\d{1,3}$/.test(value) ? Number(value) : Number.NaN }];
  });
  return { respondent: { name: values.name, email: values.email }, answers };
}

/** Domain issues in the words of the page, next to the control they concern. */
export function toFormErrors(quiz: QuizWithQuestions, issues: readonly FieldIssue[]): FormErrors {
  const fields = new Map<string, string>();
  const general: string[] = [];
  for (const issue of issues) {
    const questionId = issueQuestionId(issue);
    if (issue.field === 'respondent.name') fields.set('name', issue.message);
    else if (issue.field === 'respondent.email') fields.set('email', issue.message);
    else if (questionId) {
      // "answers" = left unanswered; any other field = a value the page never offers (tampering).
      fields.set(
        questionId,
        issue.field === 'answers' ? 'Answer this question.' : 'Choose one of the answers listed.',
      );
    } else general.push(issue.message);
  }
  const summary: FormErrors['summary'] = [];
  const nameError = fields.get('name');
  const emailError = fields.get('email');
  if (nameError) summary.push({ href: `#${NAME_ID}`, message: nameError });
  if (emailError) summary.push({ href: `#${EMAIL_ID}`, message: emailError });
  quiz.questions.forEach((question, index) => {
    const message = fields.get(question.id);
    if (message)
      summary.push({ href: `#${firstInputId(question.id)}`, message: `Question ${index + 1}: ${message}` });
  });
  const first = quiz.questions[0];
  for (const message of general)
    summary.push({ href: first ? `#${firstInputId(first.id)}` : '#main', message });
  return { summary, fields };
}

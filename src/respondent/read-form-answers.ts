import type { FieldIssue } from '../domain/errors';
import type { QuizWithQuestions } from '../db/repositories';
import { storedDefinition } from '../domain/question-types';
import {
  issueQuestionId,
  RESPONDENT_LIMITS,
  type SubmitResponseInput,
  type SubmittedAnswer,
} from '../domain/attempts/validate-submission';
import { translator, type Translator } from './i18n';
import { firstInputId, postedText, type FormValues } from './question-form-face';
import { questionProblem, readQuestionValue } from './question-forms';

export type { FormValues } from './question-form-face';

/** A refused form's problems, for the page drawn again. */
export interface FormErrors {
  /** In page order, each linking to the control it concerns. */
  summary: Array<{ href: string; message: string }>;
  /** By field key: `name`, `email`, or a question id. */
  fields: ReadonlyMap<string, string>;
}

export const EMPTY_VALUES: FormValues = { name: '', email: '', answers: new Map(), version: undefined };

export const NAME_ID = 'respondent-name';
export const EMAIL_ID = 'respondent-email';

/**
 * The quiz form's field names and the mapping between the form and a submission: `name`,
 * `email`, `version` (the quiz version the page was rendered from) and one `q_<question_id>` per
 * question, read by its type's face (src/domain/question-types/<type>/form.ts): "yes"/"no", the
 * 0-based option index, the text typed or the number as written; for a multiple_select
 * question, an empty value (always sent, so that a group left unticked still counts as answered)
 * followed by one value per ticked option; for an ordering question, one "<item id>:<position>"
 * per item given a position; for a fill_in_blanks question, one `q_<question_id>_b<n>` per blank
 * (partFieldName): the text typed or the option id; for a matching question, one
 * "<prompt id>:<match id>" per prompt given a match.
 */
export function readFormValues(quiz: QuizWithQuestions, body: Record<string, unknown>): FormValues {
  const answers = new Map<string, string>();
  for (const question of quiz.questions) {
    const value = readQuestionValue(body, question);
    if (value !== undefined) answers.set(question.id, value);
  }
  const version = postedText(body.version);
  return {
    name: postedText(body.name),
    email: postedText(body.email),
    answers,
    version: version || undefined,
  };
}

/** The submission the domain validates: values pass through unchecked, so it names every problem. */
export function toSubmission(quiz: QuizWithQuestions, values: FormValues): SubmitResponseInput {
  const answers = quiz.questions.flatMap((question): SubmittedAnswer[] => {
    const value = values.answers.get(question.id);
    if (value === undefined) return [];
    return [{ question_id: question.id, ...storedDefinition(question.type).formAnswer(value) }];
  });
  return { respondent: { name: values.name, email: values.email }, answers };
}

/**
 * "answers" = left unanswered; any other problem in its type's words (its face's `message`): for
 * a typed answer, the domain's own reason (too long, not a number); for a choice, a value the
 * page never offers (tampering).
 */
function questionMessage(
  quiz: QuizWithQuestions,
  questionId: string,
  issue: FieldIssue,
  tr: Translator,
): string {
  if (issue.field === 'answers' && issue.code === 'missing') return tr.t('error.answerQuestion');
  const type = quiz.questions.find((question) => question.id === questionId)?.type;
  return questionProblem(type ?? '', issue, tr);
}

/** The respondent fields' problems in the page's language, from the issue's code (never its English). */
function respondentMessage(issue: FieldIssue, tr: Translator): string {
  if (issue.code === 'too_long') {
    const max = issue.field === 'respondent.name' ? RESPONDENT_LIMITS.nameMax : RESPONDENT_LIMITS.emailMax;
    return tr.t('error.tooLong', { max: issue.params?.max ?? max });
  }
  if (issue.field === 'respondent.name') return tr.t('error.nameMissing');
  if (issue.code === 'not_the_attempt_email') {
    return tr.t('error.emailNotStarted', { email: issue.params?.email ?? '' });
  }
  return issue.code === 'missing' ? tr.t('error.emailMissing') : tr.t('error.emailInvalid');
}

/** Domain issues in the words of the page, next to the control they concern. */
export function toFormErrors(
  quiz: QuizWithQuestions,
  issues: readonly FieldIssue[],
  tr: Translator = translator(quiz.language),
): FormErrors {
  const fields = new Map<string, string>();
  const general: string[] = [];
  for (const issue of issues) {
    const questionId = issueQuestionId(issue);
    if (issue.field === 'respondent.name') fields.set('name', respondentMessage(issue, tr));
    else if (issue.field === 'respondent.email') fields.set('email', respondentMessage(issue, tr));
    else if (questionId) fields.set(questionId, questionMessage(quiz, questionId, issue, tr));
    // Nothing answered; otherwise an answer the page did not ask for (never the domain's English).
    else general.push(issue.code === 'missing' ? tr.t('error.answerOne') : tr.t('error.notDrawn'));
  }
  const summary: FormErrors['summary'] = [];
  const nameError = fields.get('name');
  const emailError = fields.get('email');
  if (nameError) summary.push({ href: `#${NAME_ID}`, message: nameError });
  if (emailError) summary.push({ href: `#${EMAIL_ID}`, message: emailError });
  quiz.questions.forEach((question, index) => {
    const message = fields.get(question.id);
    if (message)
      summary.push({
        href: `#${firstInputId(question.id)}`,
        message: tr.t('error.summaryQuestion', { number: index + 1, message }),
      });
  });
  const first = quiz.questions[0];
  for (const message of general)
    summary.push({ href: first ? `#${firstInputId(first.id)}` : '#main', message });
  return { summary, fields };
}

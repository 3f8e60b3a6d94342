import type { FieldIssue } from '../domain/errors';
import type { QuestionRow, QuizWithQuestions } from '../db/repositories';
import { TEXT_ANSWER_MAX } from '../domain/answer-text';
import { storedDefinition, storedTypeOf, toScorable, type QuestionType } from '../domain/question-types';
import {
  issueQuestionId,
  RESPONDENT_LIMITS,
  type SubmitResponseInput,
  type SubmittedAnswer,
} from '../domain/attempts/validate-submission';
import { translator, type Translator } from './i18n';

/**
 * The quiz form's field names and the mapping between the form and a submission:
 * `name`, `email`, `version` (the quiz version the page was rendered from) and one
 * `q_<question_id>` per question: "yes"/"no", the 0-based option index, the text typed or the
 * number as written; for a multiple_select question, an empty value (always sent, so that a
 * group left unticked still counts as answered) followed by one value per ticked option; for an
 * ordering question, one "<item id>:<position>" per item given a position; for a fill_in_blanks
 * question, one `q_<question_id>_b<n>` per blank (partFieldName): the text typed or the option id; for a
 * matching question, one "<prompt id>:<match id>" per prompt given a match.
 */
export interface FormValues {
  name: string;
  email: string;
  /**
   * Raw value by question id, only for questions the person answered; a multiple_select
   * question's ticked indexes are joined by commas ("" when none was ticked).
   */
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
/** The first control of a question (radio, checkbox or text box): where an error summary link lands. */
export const firstInputId = (questionId: string) => `q_${questionId}_0`;
export const errorId = (key: string) => `error-${key}`;
export const NAME_ID = 'respondent-name';
export const EMAIL_ID = 'respondent-email';

// Only single string values count: a repeated field (an array) is tampering and reads as unanswered.
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** A checkbox group's values: its empty marker, then one value per ticked box. */
function ticked(value: unknown): string | undefined {
  const values = Array.isArray(value) ? value : [value];
  if (!values.every((item) => typeof item === 'string') || values.length > 64) return undefined;
  if (!values.includes('')) return undefined; // the page always sends the marker: no marker, no answer
  return values.filter((item) => item !== '').join(',');
}

/** A list of selects (ordering's positions, matching's matches): the values chosen, joined; none chosen is no answer. */
function listed(value: unknown): string | undefined {
  const values = Array.isArray(value) ? value : [value];
  if (!values.every((item) => typeof item === 'string') || values.length > 64) return undefined;
  const chosen = values.filter((item) => item !== '');
  return chosen.length > 0 ? chosen.join(',') : undefined;
}

/** A control of a question in parts (fill_in_blanks' blanks): its own name, by part number (1 first). */
export const partFieldName = (questionId: string, part: number) => `${fieldName(questionId)}_b${part}`;

/** A question answered in parts: each part's text as a JSON list in part order; none filled is no answer. */
function parted(body: Record<string, unknown>, questionId: string, count: number): string | undefined {
  const values = Array.from({ length: count }, (_, index) =>
    text(body[partFieldName(questionId, index + 1)]),
  );
  return values.some((value) => value.trim() !== '') ? JSON.stringify(values) : undefined;
}

export function readFormValues(quiz: QuizWithQuestions, body: Record<string, unknown>): FormValues {
  const answers = new Map<string, string>();
  for (const question of quiz.questions) {
    const raw = body[fieldName(question.id)];
    const reading = FORM_READING[storedTypeOf(question.type)];
    const parts = reading.parts?.(question);
    const value =
      parts !== undefined
        ? parted(body, question.id, parts)
        : reading.listed
          ? listed(raw)
          : reading.ticked
            ? ticked(raw)
            : text(raw).trim()
              ? text(raw)
              : '';
    if (value !== undefined && (value !== '' || reading.ticked)) {
      answers.set(question.id, value);
    }
  }
  const version = text(body.version);
  return { name: text(body.name), email: text(body.email), answers, version: version || undefined };
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
 * "answers" = left unanswered. For a typed answer, the domain's own words (too long, not a
 * number); for a choice, any other field is a value the page never offers (tampering).
 */
function questionMessage(
  quiz: QuizWithQuestions,
  questionId: string,
  issue: FieldIssue,
  tr: Translator,
): string {
  if (issue.field === 'answers' && issue.code === 'missing') return tr.t('error.answerQuestion');
  const type = quiz.questions.find((question) => question.id === questionId)?.type;
  return FORM_READING[storedTypeOf(type ?? '')].message(issue, tr);
}

/**
 * How the form reads each type: whether it is a checkbox group (its empty marker always sent),
 * and its problems in the page's words. For a typed answer, the domain's own reason (too long,
 * not a number); for a choice, any problem is a value the page never offers (tampering).
 */
const FORM_READING: Record<
  QuestionType,
  {
    ticked: boolean;
    listed?: true;
    /** Answered in parts, each control named apart (partFieldName): how many the question has. */
    parts?: (question: QuestionRow) => number;
    message: (issue: FieldIssue, tr: Translator) => string;
  }
> = {
  yes_no: { ticked: false, message: (_issue, tr) => tr.t('error.chooseListed') },
  multiple_choice: { ticked: false, message: (_issue, tr) => tr.t('error.chooseListed') },
  multiple_select: { ticked: true, message: (_issue, tr) => tr.t('error.tickListed') },
  short_text: {
    ticked: false,
    message: (issue, tr) =>
      issue.code === 'too_long'
        ? tr.t('error.tooLong', { max: issue.params?.max ?? TEXT_ANSWER_MAX })
        : tr.t('error.typeAnswer'),
  },
  number: { ticked: false, message: (_issue, tr) => tr.t('error.numberInvalid') },
  // One select per item, each value "<item id>:<position>"; some chosen and some not is a problem.
  ordering: { ticked: false, listed: true, message: (_issue, tr) => tr.t('error.orderEach') },
  // One text box or select per blank, each named apart; the domain's words for a blank too long.
  fill_in_blanks: {
    ticked: false,
    parts: (question) => {
      const key = toScorable(question);
      return 'blanks' in key ? key.blanks.length : 0;
    },
    message: (issue, tr) =>
      issue.code === 'too_long'
        ? tr.t('error.tooLong', { max: issue.params?.max ?? TEXT_ANSWER_MAX })
        : tr.t('error.blanksListed'),
  },
  // One select per prompt, each value "<prompt id>:<match id>"; prompts left unmatched are allowed.
  matching: { ticked: false, listed: true, message: (_issue, tr) => tr.t('error.chooseListed') },
  // A radio group: any other value is one the page never offers.
  scale: { ticked: false, message: (_issue, tr) => tr.t('error.chooseListed') },
  essay: {
    ticked: false,
    message: (issue, tr) =>
      issue.code === 'too_long'
        ? tr.t('error.tooLong', { max: issue.params?.max ?? 0 })
        : issue.code === 'too_few'
          ? tr.t('error.tooFewWords', { min: issue.params?.min ?? 0, got: issue.params?.got ?? 0 })
          : issue.code === 'too_many'
            ? tr.t('error.tooManyWords', { max: issue.params?.max ?? 0 })
            : tr.t('error.typeAnswer'),
  },
};

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

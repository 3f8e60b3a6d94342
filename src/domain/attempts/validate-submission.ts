import { invalidInput, type FieldIssue } from '../errors';
import type { QuestionRow, QuizWithQuestions } from '../../db/repositories';
import {
  storedDefinition,
  toScorable,
  type Choice,
  type DrawnValues,
  type OpaqueLists,
  type SubmittedAnswer,
} from '../question-types';

export type { SubmittedAnswer };

export interface SubmitResponseInput {
  respondent?: { name?: string | null | undefined; email?: string | null | undefined } | null | undefined;
  answers: SubmittedAnswer[];
}

/** A field issue that also names the question it concerns, so a form can show it beside that question. */
export interface SubmissionIssue extends FieldIssue {
  questionId?: string;
}

export const RESPONDENT_LIMITS = { nameMax: 200, emailMax: 254 } as const;

// Deliberately loose (one @, a dot in the domain, no spaces): stricter patterns refuse real addresses.
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The question ids a rejected submission's issues point at (only submission issues carry them). */
export function issueQuestionId(issue: FieldIssue): string | undefined {
  return (issue as SubmissionIssue).questionId;
}

/**
 * Trimmed respondent fields, or null when the quiz does not collect them (never stored then) or,
 * in a submission sent when the time ran out, when they are not valid.
 */
export function respondentOf(quiz: QuizWithQuestions, input: SubmitResponseInput) {
  const name = input.respondent?.name?.trim() ?? '';
  const email = input.respondent?.email?.trim() ?? '';
  const emailValid = email.length <= RESPONDENT_LIMITS.emailMax && EMAIL.test(email);
  return {
    name: quiz.collectName && name ? name.slice(0, RESPONDENT_LIMITS.nameMax) : null,
    email: quiz.collectEmail && email && emailValid ? email.toLowerCase() : null,
  };
}

function respondentIssues(quiz: QuizWithQuestions, input: SubmitResponseInput): SubmissionIssue[] {
  const issues: SubmissionIssue[] = [];
  const name = input.respondent?.name?.trim() ?? '';
  const email = input.respondent?.email?.trim() ?? '';
  if (quiz.collectName) {
    if (!name) issues.push({ field: 'respondent.name', message: 'Enter your name.', code: 'missing' });
    else if (name.length > RESPONDENT_LIMITS.nameMax) {
      issues.push({
        field: 'respondent.name',
        message: `Use at most ${RESPONDENT_LIMITS.nameMax} characters.`,
        code: 'too_long',
        params: { max: RESPONDENT_LIMITS.nameMax },
      });
    }
  }
  if (quiz.collectEmail) {
    if (!email)
      issues.push({ field: 'respondent.email', message: 'Enter your email address.', code: 'missing' });
    else if (email.length > RESPONDENT_LIMITS.emailMax) {
      issues.push({
        field: 'respondent.email',
        message: `Use at most ${RESPONDENT_LIMITS.emailMax} characters.`,
        code: 'too_long',
        params: { max: RESPONDENT_LIMITS.emailMax },
      });
    } else if (!EMAIL.test(email)) {
      issues.push({
        field: 'respondent.email',
        message: 'Enter an email address such as name@example.com.',
        code: 'invalid',
      });
    }
  }
  return issues;
}

function excerpt(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** The answer read by its question's type (question-types/), or the issue that names what is wrong. */
function choiceFor(
  question: QuestionRow,
  answer: SubmittedAnswer,
  field: string,
  lists: OpaqueLists | undefined,
  drawn: DrawnValues | undefined,
): Choice | SubmissionIssue {
  const read = storedDefinition(question.type).parseAnswer(toScorable(question), answer, lists, drawn);
  if (!('field' in read && 'message' in read)) return read;
  return {
    field: `${field}.${read.field}`,
    questionId: question.id,
    message: read.message,
    code: read.code ?? 'invalid',
    ...(read.params ? { params: read.params } : {}),
  };
}

/**
 * Checks a submission against the quiz and its settings, reporting every problem at once
 * (a form shows them all, not one per round trip). Returns the choices by question id.
 * With `timeUp` (sent when the attempt's time ran out) nothing can be corrected any more: an
 * answer that is not valid counts as blank, as do questions left out, and the respondent's
 * fields are kept only when valid. Answers naming no question of the quiz are still refused.
 */
export function validateSubmission(
  quiz: QuizWithQuestions,
  input: SubmitResponseInput,
  options: {
    timeUp?: boolean;
    lists?: ReadonlyMap<string, OpaqueLists> | undefined;
    drawn?: ReadonlyMap<string, DrawnValues> | undefined;
  } = {},
): Map<string, Choice> {
  const { timeUp = false, lists, drawn } = options;
  const issues = timeUp ? [] : respondentIssues(quiz, input);
  const byId = new Map(quiz.questions.map((question) => [question.id, question]));
  const choices = new Map<string, Choice>();
  const attempted = new Set<string>();
  input.answers.forEach((answer, index) => {
    const field = `answers[${index}]`;
    const question = byId.get(answer.question_id);
    if (!question) {
      issues.push({
        field: `${field}.question_id`,
        message: `"${answer.question_id}" is not a question of this quiz (it may have been edited: fetch it again).`,
      });
      return;
    }
    if (attempted.has(question.id)) {
      issues.push({
        field: `${field}.question_id`,
        questionId: question.id,
        message: 'answers the same question twice: send one answer per question.',
      });
      return;
    }
    attempted.add(question.id);
    const choice = choiceFor(question, answer, field, lists?.get(question.id), drawn?.get(question.id));
    if (!('field' in choice)) choices.set(question.id, choice);
    else if (!timeUp) issues.push(choice);
  });
  if (timeUp) {
    // Every question left blank is stored as such and scores 0.
  } else if (quiz.requireAllAnswers) {
    quiz.questions.forEach((question, position) => {
      // A question with a wrong answer already has its issue; do not report it twice.
      if (attempted.has(question.id)) return;
      issues.push({
        field: 'answers',
        questionId: question.id,
        code: 'missing',
        message: `question ${position + 1} ("${excerpt(question.text)}", question_id ${question.id}) needs an answer: this quiz requires every question to be answered.`,
      });
    });
  } else if (attempted.size === 0 && quiz.questions.length > 0) {
    // An empty submission is almost always an accidental click; it would only add noise to the results.
    issues.push({ field: 'answers', message: 'Answer at least one question.', code: 'missing' });
  }
  if (issues.length > 0) throw invalidInput(issues, 'The submission cannot be accepted');
  return choices;
}

import { invalidInput, type FieldIssue } from '../errors';
import type { QuestionRow, QuizWithQuestions } from '../../db/repositories';
import { parseNumberAnswer, TEXT_ANSWER_MAX } from '../answer-text';
import type { Choice } from '../scoring';

/**
 * One answer as callers send it, in its question type's field: `answer` ("yes"/"no") for
 * yes_no, `option_index` (0-based) for multiple_choice, `choices` (0-based indexes, none allowed)
 * for multiple_select, `text` for short_text, `number` (a number, or a string such as "3,5") for
 * number.
 */
export interface SubmittedAnswer {
  question_id: string;
  /** Typed loosely on purpose: a form sends any string, and this module says what is wrong with it. */
  answer?: string | undefined;
  option_index?: number | undefined;
  choices?: readonly number[] | undefined;
  text?: string | undefined;
  number?: number | string | undefined;
}

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
    if (!name) issues.push({ field: 'respondent.name', message: 'Enter your name.' });
    else if (name.length > RESPONDENT_LIMITS.nameMax) {
      issues.push({
        field: 'respondent.name',
        message: `Use at most ${RESPONDENT_LIMITS.nameMax} characters.`,
      });
    }
  }
  if (quiz.collectEmail) {
    if (!email) issues.push({ field: 'respondent.email', message: 'Enter your email address.' });
    else if (email.length > RESPONDENT_LIMITS.emailMax) {
      issues.push({
        field: 'respondent.email',
        message: `Use at most ${RESPONDENT_LIMITS.emailMax} characters.`,
      });
    } else if (!EMAIL.test(email)) {
      issues.push({ field: 'respondent.email', message: 'Enter an email address such as name@example.com.' });
    }
  }
  return issues;
}

function excerpt(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function choiceFor(question: QuestionRow, answer: SubmittedAnswer, field: string): Choice | SubmissionIssue {
  const issue = (at: string, message: string): SubmissionIssue => ({
    field: `${field}.${at}`,
    questionId: question.id,
    message,
  });
  const optionCount = question.options.length;
  switch (question.type) {
    case 'yes_no':
      if (answer.answer === 'yes' || answer.answer === 'no') return { choice: answer.answer };
      return issue('answer', 'a yes_no question takes answer "yes" or "no".');
    case 'multiple_select': {
      const indexes = answer.choices;
      const fits = (index: number) => Number.isInteger(index) && index >= 0 && index < optionCount;
      if (Array.isArray(indexes) && indexes.every(fits) && new Set(indexes).size === indexes.length) {
        return { optionIndexes: [...indexes].sort((a, b) => a - b) };
      }
      return issue(
        'choices',
        `a multiple_select question takes choices: a list of distinct option indexes from 0 to ${optionCount - 1} ([] ticks none).`,
      );
    }
    case 'short_text': {
      if (typeof answer.text !== 'string')
        return issue('text', 'a short_text question takes text: a string.');
      const text = answer.text.trim();
      if (text === '') return issue('text', 'Type an answer, or leave the question out.');
      if (text.length > TEXT_ANSWER_MAX) {
        return issue('text', `Use at most ${TEXT_ANSWER_MAX} characters (got ${text.length}).`);
      }
      return { text };
    }
    case 'number': {
      const written = typeof answer.number === 'number' ? String(answer.number) : answer.number;
      if (typeof written !== 'string') {
        return issue('number', 'a number question takes number: a number, or a string such as "3,5".');
      }
      const parsed = parseNumberAnswer(written);
      if ('error' in parsed) return issue('number', `${capitalised(parsed.error)}.`);
      return { number: parsed.value, written: written.trim() };
    }
    default: {
      const index = answer.option_index;
      if (index !== undefined && Number.isInteger(index) && index >= 0 && index < optionCount) {
        return { optionIndex: index };
      }
      return issue(
        'option_index',
        `a multiple_choice question takes option_index from 0 to ${optionCount - 1}.`,
      );
    }
  }
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

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
  options: { timeUp?: boolean } = {},
): Map<string, Choice> {
  const { timeUp = false } = options;
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
    const choice = choiceFor(question, answer, field);
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
        message: `question ${position + 1} ("${excerpt(question.text)}", question_id ${question.id}) needs an answer: this quiz requires every question to be answered.`,
      });
    });
  } else if (attempted.size === 0 && quiz.questions.length > 0) {
    // An empty submission is almost always an accidental click; it would only add noise to the results.
    issues.push({ field: 'answers', message: 'Answer at least one question.' });
  }
  if (issues.length > 0) throw invalidInput(issues, 'The submission cannot be accepted');
  return choices;
}

import type { QuestionRow, QuizRow, SettingsData } from '../../db/repositories';
import { storedDefinition, toScorable } from '../question-types';
import { invalidInput, type FieldIssue } from '../errors';
import type { SettingsInput } from '../quiz-input';

/**
 * How a quiz is taken: the settings that need an attempt (a start the server records), the
 * window, and the checks that keep a combination of settings meaningful. Null or false settings
 * leave a quiz as it always was: no intro, no token, submissions as before.
 */
export type TakingSettings = Pick<
  QuizRow,
  | 'timeLimitMinutes'
  | 'opensAt'
  | 'closesAt'
  | 'shuffleQuestions'
  | 'shuffleOptions'
  | 'questionPoolSize'
  | 'maxAttemptsPerEmail'
  | 'collectEmail'
>;

/** A submission may arrive this long after the deadline: the page's own submit at zero, in transit. */
export const GRACE_SECONDS = 30;

/** Whether a question shows parts under opaque ids (typed blanks alone show none), or draws values. */
function namesPartsByIds(question: QuestionRow): boolean {
  const definition = storedDefinition(question.type);
  // A type that draws its own values keeps them with the attempt, so reloads show the same.
  if (definition.drawing) return true;
  const lists = definition.opaqueLists?.(toScorable(question));
  return lists !== undefined && Object.keys(lists).length > 0;
}

/**
 * A quiz taken through attempts: POST .../attempts (or the Start button) first, then submit with
 * the token. A question whose type names parts by opaque ids (ordering's items, a choice-list
 * blank's options) or draws its own values needs one too, so that the ids, the order shown
 * and the values are kept.
 */
export function takesAttempts(quiz: TakingSettings & { questions?: readonly QuestionRow[] }): boolean {
  return (
    (quiz.questions ?? []).some(namesPartsByIds) ||
    quiz.timeLimitMinutes !== null ||
    quiz.shuffleQuestions ||
    quiz.shuffleOptions ||
    quiz.questionPoolSize !== null ||
    (quiz.maxAttemptsPerEmail !== null && quiz.collectEmail)
  );
}

export type WindowState = 'open' | 'not_yet_open' | 'closed';

/** Where `now` falls in the quiz's window (its own times only; accepting_responses is apart). */
export function windowState(quiz: Pick<QuizRow, 'opensAt' | 'closesAt'>, now: number): WindowState {
  if (quiz.opensAt && now < quiz.opensAt.getTime()) return 'not_yet_open';
  if (quiz.closesAt && now >= quiz.closesAt.getTime()) return 'closed';
  return 'open';
}

/** `is_open`: published, taking responses, and inside its window. */
export function isOpen(
  quiz: Pick<QuizRow, 'status' | 'acceptingResponses' | 'opensAt' | 'closesAt'>,
  now: number,
): boolean {
  return quiz.status === 'published' && quiz.acceptingResponses && windowState(quiz, now) === 'open';
}

/** The state a quiz will have once a change is applied: the current columns overlaid by the change. */
export type MergedSettings = TakingSettings & Pick<QuizRow, 'acceptingResponses'>;

export function mergeSettings(current: MergedSettings, change: SettingsData): MergedSettings {
  const merged = { ...current };
  for (const key of Object.keys(merged) as Array<keyof MergedSettings>) {
    if (change[key] !== undefined) (merged as Record<string, unknown>)[key] = change[key];
  }
  return merged;
}

/** A new quiz's defaults (prisma/schema.prisma). */
export const DEFAULT_TAKING: MergedSettings = {
  acceptingResponses: true,
  collectEmail: false,
  timeLimitMinutes: null,
  opensAt: null,
  closesAt: null,
  shuffleQuestions: false,
  shuffleOptions: false,
  questionPoolSize: null,
  maxAttemptsPerEmail: null,
};

/**
 * Refuses settings that contradict each other once applied, each with the field to fix: a pool
 * larger than the quiz, an attempt limit without emails, a window that closes before it opens,
 * and a reopening whose closes_at has passed (closing by hand stays accepting_responses: false).
 */
export function checkTakingSettings(
  merged: MergedSettings,
  input: SettingsInput | undefined,
  questionCount: number,
  now: number,
): void {
  const issues: FieldIssue[] = [];
  if (merged.questionPoolSize !== null && merged.questionPoolSize > questionCount) {
    issues.push({
      field: 'settings.question_pool_size',
      message: `is ${merged.questionPoolSize} but the quiz has ${questionCount} question${questionCount === 1 ? '' : 's'}: use at most ${questionCount}, or null for all`,
      code: 'more_than_questions',
      params: { max: questionCount },
    });
  }
  if (merged.maxAttemptsPerEmail !== null && !merged.collectEmail) {
    issues.push({
      field: 'settings.max_attempts_per_email',
      message: 'needs collect_email: true (attempts are counted per email address)',
      code: 'needs_setting',
      params: { setting: 'collect_email' },
    });
  }
  if (merged.opensAt && merged.closesAt && merged.closesAt.getTime() <= merged.opensAt.getTime()) {
    issues.push({
      field: 'settings.closes_at',
      message: `must be after opens_at (${merged.opensAt.toISOString()})`,
      code: 'not_after',
      params: { after: 'opens_at' },
    });
  }
  if (input?.accepting_responses === true && merged.closesAt && merged.closesAt.getTime() <= now) {
    issues.push({
      field: 'settings.closes_at',
      message: `passed at ${merged.closesAt.toISOString()}: to reopen the quiz, send a new closes_at in the future (or null) with accepting_responses: true`,
      code: 'passed',
    });
  }
  if (issues.length > 0) throw invalidInput(issues, 'These settings cannot go together. Nothing was changed');
}

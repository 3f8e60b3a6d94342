import { randomInt } from 'node:crypto';
import type { SettingsData } from '../../db/repositories';
import { nowOf, type DomainDeps } from '../deps';
import { DomainError } from '../errors';
import { closeQuiz } from './close-quiz';
import { LIMITS, type Language, type QuestionInput } from '../quiz-input';
import { questionRecord } from '../quiz-records';
import { mediaOf } from '../images/image-ref';
import { SETTINGS } from '../quiz-settings';
import { newSlug } from '../slug';
import { loadOwnedQuiz } from '../owned/load-owned-quiz';
import { toQuestionData } from './question-data';
import { titleKey } from '../owned/resolve-quiz';

/** The warnings shape of quiz-warnings.ts; a warning about the quiz itself has no question_id. */
export interface CopyWarning {
  code: string;
  question_id: string | null;
  field: string | null;
  message: string;
}

export interface DuplicateQuizInput {
  ref: string;
  /** Default: the original's title with " (copy)". */
  title?: string | undefined;
  language?: Language | undefined;
  /**
   * False for a credential without quizzes:read: the copy hides the key from respondents, and
   * its slug, unless the caller names the copy, is made of neutral words, not the title it cannot read.
   */
  mayRead?: boolean | undefined;
}

/** The settings a copy takes over: every setting of the table but accepting_responses (the copy takes responses). */
const COPIED = SETTINGS.filter((entry) => entry.name !== 'accepting_responses').map((entry) => entry.column);

const SLUG_ATTEMPTS = 5;

/** A copy's slug for a caller that may not read the original's title: the public link would show it. */
const NEUTRAL_SLUG_WORDS = 'quiz copy';

/**
 * A new draft with the quiz's questions and settings, for another class or in another language.
 * Responses, statistics, webhooks and the link secret stay with the original; the copy takes
 * responses (accepting_responses is on), and an opening or closing time already past is cleared
 * with a warning, since the copy would otherwise be closed before it is shared. The web's
 * Duplicate button and duplicate_quiz both call this.
 */
export async function duplicateQuiz(deps: DomainDeps, ownerId: string, input: DuplicateQuizInput) {
  const original = await loadOwnedQuiz(deps, ownerId, input.ref);
  const now = nowOf(deps);
  const warnings: CopyWarning[] = [];
  const settings: SettingsData = { acceptingResponses: true };
  for (const key of COPIED) (settings as Record<string, unknown>)[key] = original[key];
  if (input.language !== undefined) settings.language = input.language;
  for (const [key, field] of [
    ['opensAt', 'settings.opens_at'],
    ['closesAt', 'settings.closes_at'],
  ] as const) {
    const at = original[key];
    if (at && at.getTime() <= now) {
      settings[key] = null;
      warnings.push({
        code: 'past_time_cleared',
        question_id: null,
        field,
        message: `was ${at.toISOString()}, already past: the copy has none; set a new one if it needs one`,
      });
    }
  }
  if (!original.acceptingResponses) {
    warnings.push({
      code: 'reopened',
      question_id: null,
      field: 'settings.accepting_responses',
      message: 'the original is closed; the copy takes responses once published',
    });
  }
  if (input.mayRead === false && settings.showCorrectAnswers !== 'never') {
    settings.showCorrectAnswers = 'never';
    warnings.push({
      code: 'answer_key_hidden',
      question_id: null,
      field: 'settings.show_correct_answers',
      message:
        'the copy never shows respondents the answer key: only the owner, or a credential with quizzes:read, may turn it on',
    });
  }
  const title = input.title ?? `${original.title} (copy)`.slice(0, LIMITS.titleMax);
  const slugWords = input.title ?? (input.mayRead === false ? NEUTRAL_SLUG_WORDS : title);
  // The stored questions, through the same shape the tools answer with, so the copy is what a
  // caller would get by sending them back: the same types, keys, scores and explanations.
  const questions = original.questions.map((row) => {
    const { question_id: _id, image: _image, ...rest } = questionRecord(row);
    // The same pictures, by their hashes: the copy counts as one more use of each.
    return toQuestionData({ ...(rest as QuestionInput), media: mediaOf(row.media) });
  });
  for (let attempt = 0; attempt < SLUG_ATTEMPTS; attempt += 1) {
    const copy = await deps.repos.quizzes.create({
      ownerId,
      title,
      titleKey: titleKey(title),
      slug: newSlug(slugWords, randomInt),
      description: original.description,
      settings,
      questions,
    });
    if (copy) {
      return {
        quiz_id: copy.id,
        slug: copy.slug,
        title: copy.title,
        status: 'draft' as const,
        language: copy.language,
        question_count: copy.questions.length,
        duplicated_from: { quiz_id: original.id, title: original.title },
        warnings,
      };
    }
  }
  throw new Error(`could not find a free slug for "${title}" after ${SLUG_ATTEMPTS} attempts`);
}

/**
 * Next term's copy, and the original closed: a draft original is refused before anything is
 * copied, since it takes no responses to close. The copy is made first, so a failed close leaves
 * a copy and an open original, never a closed quiz without its copy.
 */
export async function duplicateAndClose(deps: DomainDeps, ownerId: string, input: DuplicateQuizInput) {
  const original = await loadOwnedQuiz(deps, ownerId, input.ref);
  if (original.status !== 'published') {
    throw new DomainError(
      'invalid_state',
      'This quiz is a draft: it takes no responses, so there is nothing to close. Leave close_original out to copy it.',
    );
  }
  const copy = await duplicateQuiz(deps, ownerId, { ...input, ref: original.id });
  const closed = await closeQuiz(deps, ownerId, { ref: original.id });
  return { copy, closed };
}

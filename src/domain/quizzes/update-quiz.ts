import { settingsInZone } from '../account-time-zone';
import { checkTakingSettings, mergeSettings } from '../attempts/taking-rules';
import { nowOf, type DomainDeps } from '../deps';
import { ConfirmationRequired, DomainError } from '../errors';
import type { QuestionInput, SettingsInput } from '../quiz-input';
import { quizWithQuestionsRecord } from '../quiz-records';
import type { QuestionData, QuestionRow, QuizChange, QuizWithQuestions } from '../../db/repositories';
import { remarkResponses } from '../grading/remark-responses';
import { onlyTextsChanged, questionsKeepingIds } from './question-data';
import { loadOwnedQuiz } from '../owned/load-owned-quiz';
import { quizNotFound, titleKey } from '../owned/resolve-quiz';
import { settingsColumns } from '../quiz-settings';
import { withWarnings } from './quiz-warnings';
import { replaceWarnings } from './replace-warnings';
import { refuseShowingKeys } from './write-only';
import { quizClosedEvent } from '../webhooks/events';
import { quotaCheck, rememberSources, resolveQuestionImages, rowMedia } from '../images/resolve-images';

export interface UpdateQuizInput {
  ref: string;
  questions?: QuestionInput[] | undefined;
  title?: string | undefined;
  /** Null or '' removes it. */
  description?: string | null | undefined;
  settings?: SettingsInput | undefined;
  /** IANA zone the settings' times without an offset are read in; the account's when absent. */
  timezone?: string | undefined;
  confirmEditPublished?: boolean | undefined;
  /** Keep ids across fixed answer keys and mark past answers again under them (remark-responses.ts). */
  remarkPastResponses?: boolean | undefined;
  /** The owner's quiz as the caller already read it (by its id): not read again. */
  loaded?: QuizWithQuestions | undefined;
  /**
   * False for a credential without quizzes:read: it may not make the key shown, and its answer
   * is the same whether or not a key it sends equals the stored one (write-only.ts).
   */
  mayRead?: boolean | undefined;
}

/**
 * Changes a quiz. `questions`, when given, replace the current ones; an item that carries the
 * `question_id` of a current question keeps that id (and its statistics) when it marks answers
 * as before (question-data.ts), the others get new ids. Past responses keep their own answers
 * and scores.
 * A published quiz changes only with `confirm_edit_published: true`; without it nothing changes.
 * With `remarkPastResponses`, the past answers to the kept questions are marked again under
 * their keys once the edit is stored: a step of its own, which changes only marks that differ,
 * so should it fail, the same call again completes it.
 */
export async function updateQuiz(deps: DomainDeps, ownerId: string, input: UpdateQuizInput) {
  if (input.mayRead === false) refuseShowingKeys(input.settings);
  if (input.remarkPastResponses && input.questions === undefined) {
    throw new DomainError(
      'invalid_input',
      'remark_past_responses re-marks past answers under the questions you send: pass questions too, each with its question_id.',
      [{ field: 'questions', message: 'is required with remark_past_responses', code: 'missing' }],
    );
  }
  if (
    input.questions === undefined &&
    input.title === undefined &&
    input.settings === undefined &&
    input.description === undefined
  ) {
    throw new DomainError(
      'invalid_input',
      'Nothing to change: pass questions (they replace the current ones), title, description, or settings.',
      [
        {
          field: 'questions',
          message: 'is required unless title, description or settings is given',
          code: 'missing',
        },
      ],
    );
  }
  const zoned = await settingsInZone(deps.repos, ownerId, input.settings, input.timezone);
  input = { ...input, settings: zoned.settings };
  // Read once: the taking rules are checked against it, the edit itself runs under the row's lock.
  const loaded = input.loaded ?? (await loadOwnedQuiz(deps, ownerId, input.ref));
  const { id } = loaded;
  const change: QuizChange = {
    ...(input.title !== undefined ? { title: { title: input.title, titleKey: titleKey(input.title) } } : {}),
    ...(input.description !== undefined ? { description: input.description || null } : {}),
    settings: settingsColumns(input.settings),
  };
  let stored: readonly QuestionData[] = [];
  let before: readonly QuestionRow[] = [];
  let sources: Array<{ url: string; hash: string }> = [];
  if (input.questions !== undefined) {
    // A question sent back without image fields keeps the pictures of the question it names.
    const byId = new Map(loaded.questions.map((question) => [question.id, question]));
    const images = await resolveQuestionImages(deps, ownerId, input.questions, 'questions', (question) =>
      rowMedia(question.question_id ? byId.get(question.question_id) : undefined),
    );
    sources = images.sources;
    change.images = quotaCheck(deps, images.blobs);
    const incoming = images.questions;
    const remarking = input.remarkPastResponses === true;
    // Ids are kept against the questions as the locked edit finds them.
    change.questionsFrom = (current) => {
      before = current.questions;
      // A caller that may not read the key cannot learn from the ids whether it sent the stored
      // one: every question it sends replaces its key, so each gets a new id (write-only.ts).
      stored = questionsKeepingIds(current.questions, incoming, remarking, () => input.mayRead === false);
      return { questions: stored, keepVersion: onlyTextsChanged(current.questions, stored) };
    };
  }
  checkTakingChange(deps, loaded, input, change);
  // Checked inside the edit's transaction, against the state the edit replaces.
  const quiz = await deps.repos.quizzes.update(
    ownerId,
    id,
    change,
    (current) => {
      if (current.status !== 'published') return;
      if (input.confirmEditPublished !== true) {
        throw publishedNeedsConfirmation(current.title);
      }
      if (input.questions?.length === 0) {
        throw new DomainError(
          'invalid_state',
          `"${current.title}" is published and must keep at least one question. Nothing was changed.`,
          [
            {
              field: 'questions',
              message: 'a published quiz needs at least one question',
              code: 'needs_questions',
            },
          ],
        );
      }
    },
    (closed) => quizClosedEvent(closed, new Date(), 'owner'),
  );
  if (!quiz) throw quizNotFound(input.ref);
  await rememberSources(deps, ownerId, sources);
  const written = withWarnings(quizWithQuestionsRecord(deps.baseUrl, quiz), quiz);
  const edits = input.questions
    ? replaceWarnings(
        before,
        input.questions,
        quiz.questions.map((question) => question.id),
        input.mayRead !== false,
      )
    : [];
  const record = {
    ...written,
    warnings: [...edits, ...written.warnings],
    ...(zoned.times ? { times: zoned.times } : {}),
  };
  if (!input.remarkPastResponses) return record;
  // Every kept question: those whose key is unchanged give the same marks, so change nothing.
  const kept = stored.flatMap((question) => (question.id ? [question.id] : []));
  const keptNow = quiz.questions
    .filter((question) => kept.includes(question.id))
    .map((question) => question.id);
  const remarked = await remarkResponses(deps, quiz, keptNow);
  return {
    ...record,
    remarked_responses: remarked.remarked,
    // Only when the re-marking kept an override: absent on every other answer.
    ...(remarked.overriddenKept > 0 ? { overridden_kept: remarked.overriddenKept } : {}),
  };
}

/** The settings as they will be after the change, checked together (attempts/taking-rules.ts). */
function checkTakingChange(
  deps: DomainDeps,
  current: QuizWithQuestions,
  input: UpdateQuizInput,
  change: QuizChange,
): void {
  if (input.settings === undefined && input.questions === undefined) return;
  checkTakingSettings(
    mergeSettings(current, change.settings),
    input.settings,
    input.questions?.length ?? current.questions.length,
    nowOf(deps),
  );
}

/** An edit of a published quiz waits for `confirm_edit_published` (update_quiz, edit_questions, the editor). */
export function publishedNeedsConfirmation(title: string): ConfirmationRequired {
  return new ConfirmationRequired(
    `"${title}" is published, so people may already have answered it. Nothing was changed.`,
    {
      argument: 'confirm_edit_published',
      lead: 'To change it anyway',
      after: '; past responses keep their scores',
    },
  );
}

import { randomInt } from 'node:crypto';
import { settingsInZone } from '../account-time-zone';
import { checkTakingSettings, DEFAULT_TAKING, mergeSettings } from '../attempts/taking-rules';
import { nowOf, type DomainDeps } from '../deps';
import type { QuestionInput, SettingsInput } from '../quiz-input';
import { quizWithQuestionsRecord } from '../quiz-records';
import { newSlug } from '../slug';
import { toQuestionData } from './question-data';
import { titleKey } from '../owned/resolve-quiz';
import { settingsColumns } from '../quiz-settings';
import { withWarnings } from './quiz-warnings';
import { quotaCheck, rememberSources, resolveQuestionImages } from '../images/resolve-images';

export interface CreateQuizInput {
  title: string;
  description?: string | undefined;
  questions: QuestionInput[];
  settings?: SettingsInput;
  /** IANA zone the settings' times without an offset are read in; the account's when absent. */
  timezone?: string | undefined;
}

const SLUG_ATTEMPTS = 5;

/**
 * Creates a draft quiz. Its slug is unique across all users (it names the public page) and made
 * from the title and a random suffix alone (see newSlug); should the unique index ever refuse
 * one, the next attempt draws another suffix.
 */
export async function createQuiz(deps: DomainDeps, ownerId: string, input: CreateQuizInput) {
  const { repos, baseUrl } = deps;
  const zoned = await settingsInZone(repos, ownerId, input.settings, input.timezone);
  const settings = settingsColumns(zoned.settings);
  checkTakingSettings(
    mergeSettings(DEFAULT_TAKING, settings),
    zoned.settings,
    input.questions.length,
    nowOf(deps),
  );
  const images = await resolveQuestionImages(deps, ownerId, input.questions, 'questions');
  for (let attempt = 0; attempt < SLUG_ATTEMPTS; attempt += 1) {
    const quiz = await repos.quizzes.create({
      ownerId,
      title: input.title,
      titleKey: titleKey(input.title),
      slug: newSlug(input.title, randomInt),
      description: input.description || null,
      settings,
      // A new quiz has no questions to keep: every one gets a new id.
      questions: images.questions.map((question) => toQuestionData(question)),
      images: quotaCheck(deps, images.blobs),
    });
    if (quiz) {
      await rememberSources(deps, ownerId, images.sources);
      const record = withWarnings(quizWithQuestionsRecord(baseUrl, quiz), quiz);
      return zoned.times ? { ...record, times: zoned.times } : record;
    }
  }
  throw new Error(`could not find a free slug for "${input.title}" after ${SLUG_ATTEMPTS} attempts`);
}

import { randomInt } from 'node:crypto';
import { settingsInZone } from '../account-time-zone';
import { checkTakingSettings, DEFAULT_TAKING, mergeSettings } from '../attempts/taking-rules';
import { nowOf, type DomainDeps } from '../deps';
import { invalidInput } from '../errors';
import type { QuizWithQuestions } from '../../db/repositories';
import type { QuestionInput, SettingsInput } from '../quiz-input';
import { quizWithQuestionsRecord, settingsRecord } from '../quiz-records';
import { newSlug } from '../slug';
import { toQuestionData } from './question-data';
import { titleKey } from '../owned/resolve-quiz';
import { settingsColumns } from '../quiz-settings';
import { withWarnings } from './quiz-warnings';
import { quotaCheck, rememberSources, resolveQuestionImages } from '../images/resolve-images';
import { publishQuiz } from './publish-quiz';

export interface CreateQuizInput {
  title: string;
  description?: string | undefined;
  questions: QuestionInput[];
  settings?: SettingsInput;
  /** IANA zone the settings' times without an offset are read in; the account's when absent. */
  timezone?: string | undefined;
  /** Publish it in the same call (it needs a question): the answer then says so, with its public link. */
  publish?: boolean | undefined;
}

const SLUG_ATTEMPTS = 5;

/**
 * Creates a draft quiz. Its slug is unique across all users (it names the public page) and made
 * from the title and a random suffix alone (see newSlug); should the unique index ever refuse
 * one, the next attempt draws another suffix.
 */
export async function createQuiz(deps: DomainDeps, ownerId: string, input: CreateQuizInput) {
  return (await created(deps, ownerId, input)).record;
}

/**
 * create_quiz's brief reply: where the quiz stands and its settings, as get_quiz_settings gives
 * them, and the new questions' ids in order, not the questions sent back.
 */
export async function createQuizBrief(deps: DomainDeps, ownerId: string, input: CreateQuizInput) {
  const { record, quiz } = await created(deps, ownerId, input);
  const { quiz_id, slug, title, status, published_at, public_url, question_count, max_score, ...settings } =
    settingsRecord(deps.baseUrl, quiz, nowOf(deps));
  return {
    quiz_id,
    slug,
    title,
    status,
    ...(input.publish ? { published_at } : {}),
    public_url,
    question_count,
    max_score,
    question_ids: record.questions.map((question) => question.question_id),
    settings,
    warnings: record.warnings,
    ...('times' in record ? { times: record.times } : {}),
  };
}

async function created(deps: DomainDeps, ownerId: string, input: CreateQuizInput) {
  const { repos, baseUrl } = deps;
  // Refused before anything is written: a quiz without questions cannot be published.
  if (input.publish && input.questions.length === 0)
    throw invalidInput([
      {
        field: 'publish',
        message: 'a quiz needs a question to be published: send questions, or leave publish out',
        code: 'invalid',
      },
    ]);
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
      const written = input.publish ? await published(deps, ownerId, quiz) : quiz;
      const record = withWarnings(quizWithQuestionsRecord(baseUrl, written), written);
      const stated = input.publish ? withPublishedAt(record, written) : record;
      return { record: zoned.times ? { ...stated, times: zoned.times } : stated, quiz: written };
    }
  }
  throw new Error(`could not find a free slug for "${input.title}" after ${SLUG_ATTEMPTS} attempts`);
}

/** The new quiz published, as the row reads now. */
async function published(
  deps: DomainDeps,
  ownerId: string,
  quiz: QuizWithQuestions,
): Promise<QuizWithQuestions> {
  const done = await publishQuiz(deps, ownerId, quiz.id);
  return {
    ...quiz,
    status: done.status,
    publishedAt: done.published_at ? new Date(done.published_at) : null,
  };
}

/** published_at after the status, where get_quiz_settings has it, when publish was asked. */
function withPublishedAt<R extends { status: string }>(record: R, quiz: QuizWithQuestions) {
  const entries: Array<[string, unknown]> = Object.entries(record);
  const at = entries.findIndex(([key]) => key === 'status') + 1;
  entries.splice(at, 0, ['published_at', quiz.publishedAt?.toISOString() ?? null]);
  return Object.fromEntries(entries) as R & { published_at: string | null };
}

import { randomInt } from 'node:crypto';
import { isUniqueViolation } from '../../db/database';
import type { DomainDeps } from '../deps';
import type { QuestionInput, SettingsInput } from '../quiz-input';
import { questionsInclude, quizWithQuestionsRecord } from '../quiz-records';
import { nextFreeSlug, slugify, SLUG_MAX_LENGTH } from '../slug';
import { titleKey } from './resolve-quiz';
import { questionsCreateData, settingsData } from './quiz-writes';

export interface CreateQuizInput {
  title: string;
  questions: QuestionInput[];
  settings?: SettingsInput;
}

const SLUG_ATTEMPTS = 25;

/**
 * Creates a draft quiz. The slug is unique across all users (it names the public page):
 * pick the next free `base`, `base-2`, ...; when a concurrent create takes it first the
 * unique index refuses ours and we pick again, among a few free ones so retries spread out.
 */
export async function createQuiz({ db, baseUrl }: DomainDeps, ownerId: string, input: CreateQuizInput) {
  const base = slugify(input.title);
  for (let attempt = 0; attempt < SLUG_ATTEMPTS; attempt += 1) {
    const taken = await db.quiz.findMany({
      where: { slug: { startsWith: base.slice(0, SLUG_MAX_LENGTH - 8) } },
      select: { slug: true },
    });
    const slug = nextFreeSlug(
      base,
      taken.map((row) => row.slug),
      attempt,
      (n) => randomInt(n),
    );
    try {
      const quiz = await db.quiz.create({
        data: {
          owner: { connect: { id: ownerId } },
          title: input.title,
          titleKey: titleKey(input.title),
          slug,
          status: 'draft',
          ...(settingsData(input.settings) as object),
          questions: { create: questionsCreateData(input.questions) },
        },
        include: questionsInclude,
      });
      return quizWithQuestionsRecord(baseUrl, quiz);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  throw new Error(`could not find a free slug for "${base}" after ${SLUG_ATTEMPTS} attempts`);
}

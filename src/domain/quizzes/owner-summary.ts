import type { DomainDeps } from '../deps';

/** What the dashboard's overview counts: the owner's quizzes, how many are public, their responses. */
export async function ownerSummary({ db }: Pick<DomainDeps, 'db'>, ownerId: string) {
  const [quizzes, published, responses] = await Promise.all([
    db.quiz.count({ where: { ownerId } }),
    db.quiz.count({ where: { ownerId, status: 'published' } }),
    db.response.count({ where: { quiz: { ownerId } } }),
  ]);
  return { quizzes, published, responses };
}

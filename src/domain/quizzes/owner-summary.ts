import type { DomainDeps } from '../deps';

/** What the dashboard's overview counts: the owner's quizzes, how many are public, their responses. */
export async function ownerSummary({ repos }: Pick<DomainDeps, 'repos'>, ownerId: string) {
  const [quizzes, published, responses] = await Promise.all([
    repos.quizzes.countByOwner(ownerId),
    repos.quizzes.countByOwner(ownerId, 'published'),
    repos.responses.countForOwner(ownerId),
  ]);
  return { quizzes, published, responses };
}

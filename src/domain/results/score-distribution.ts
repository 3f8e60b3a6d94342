import type { DomainDeps } from '../deps';

export interface ScoreCount {
  score: number;
  count: number;
}

/** How many responses got each score, lowest first: one grouped count in the database. */
export async function scoreDistribution(
  { db }: Pick<DomainDeps, 'db'>,
  quizId: string,
): Promise<ScoreCount[]> {
  const groups = await db.response.groupBy({
    by: ['score'],
    where: { quizId },
    _count: { _all: true },
    orderBy: { score: 'asc' },
  });
  return groups.map((group) => ({ score: group.score, count: group._count._all }));
}

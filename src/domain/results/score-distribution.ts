import type { DomainDeps } from '../deps';

export interface ScoreCount {
  score: number;
  count: number;
}

/** How many responses got each score, lowest first: one grouped count in the database. */
export async function scoreDistribution(
  { repos }: Pick<DomainDeps, 'repos'>,
  quizId: string,
): Promise<ScoreCount[]> {
  return repos.responses.scoreCounts(quizId);
}

import type { DomainDeps } from '../deps';
import { scoreCountsOf } from './result-figures';

export interface ScoreCount {
  score: number;
  count: number;
  /** Of `count`, the responses waiting for a person's grade: a score so far. */
  pending?: number;
}

/** How many responses got each score, lowest first: from the running figures (a few rows). */
export async function scoreDistribution(
  { repos }: Pick<DomainDeps, 'repos'>,
  quizId: string,
): Promise<ScoreCount[]> {
  return scoreCountsOf(await repos.responses.figures(quizId));
}

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

/** The owner's newest responses across all their quizzes, for the overview: who, where, how well. */
export async function recentResponses({ repos }: Pick<DomainDeps, 'repos'>, ownerId: string, limit: number) {
  const rows = await repos.responses.recentForOwner(ownerId, limit);
  return rows.map((row) => ({
    response_id: row.id,
    quiz: { quiz_id: row.quiz.id, title: row.quiz.title },
    respondent_name: row.respondentName,
    score: row.score,
    max_score: row.maxScore,
    submitted_at: row.submittedAt.toISOString(),
  }));
}

import type { DomainDeps } from '../deps';
import { DomainError } from '../errors';

/**
 * Finds the caller's quiz named by `ref`: exact ID, then exact slug, then title (trimmed;
 * exact first, then case-insensitive), and only when all of those find nothing, a title that
 * differs in look-alike form alone (see looseTitleKey). A reference that resolves by the earlier
 * steps never reaches the last, so it resolves as it always did.
 *
 * Only the caller's quizzes are searched, and "not yours" and "does not exist" give one
 * and the same error: nobody can probe for other users' quizzes.
 */
export interface QuizRef {
  id: string;
  slug: string;
  title: string;
}

const MAX_CANDIDATES = 10;
/** The last step reads titles, not an index: it looks at the most recently changed this many. */
const LOOSE_MATCH_SCAN = 5_000;

export function titleKey(title: string): string {
  return title.trim().toLowerCase();
}

/**
 * A title as a reader sees it: compatibility forms folded (NFKC: full-width `Ｑｕｉｚ` is `Quiz`),
 * invisible format characters dropped (zero-width spaces and joiners, bidi controls such as
 * U+202E, soft hyphens), runs of spaces made one, case ignored. Letters of other scripts that
 * only look alike (Cyrillic `і` for Latin `i`) stay distinct: they are different text, and an
 * assistant tells such quizzes apart by the slug and id that every list shows.
 */
export function looseTitleKey(title: string): string {
  return title
    .normalize('NFKC')
    .replace(/\p{Cf}/gu, '')
    .replace(/\s+/gu, ' ')
    .trim()
    .toLowerCase();
}

export function quizNotFound(ref: string): DomainError {
  return new DomainError(
    'quiz_not_found',
    `No quiz that you own matches "${ref}". Pass the quiz_id, slug or exact title of one of your quizzes; list_quizzes shows them.`,
  );
}

export async function resolveQuiz(
  deps: Pick<DomainDeps, 'repos'>,
  ownerId: string,
  ref: string,
): Promise<QuizRef> {
  const wanted = ref.trim();
  const key = titleKey(ref);
  const matches = await deps.repos.quizzes.quizCandidates(ownerId, wanted, key, MAX_CANDIDATES + 2);
  if (matches.length > 0) return pickQuiz(matches, ref);
  const loose = looseTitleKey(ref);
  const alike = (await deps.repos.quizzes.titlesByOwner(ownerId, LOOSE_MATCH_SCAN)).filter(
    (quiz) => looseTitleKey(quiz.title) === loose,
  );
  return pickQuiz(alike, ref);
}

/** The precedence above, over the caller's quizzes that match in any way. */
export function pickQuiz<T extends QuizRef>(matches: readonly T[], ref: string): T {
  const wanted = ref.trim();
  const byId = matches.find((quiz) => quiz.id === wanted);
  if (byId) return byId;
  const bySlug = matches.find((quiz) => quiz.slug === wanted);
  if (bySlug) return bySlug;
  const exact = matches.filter((quiz) => quiz.title.trim() === wanted);
  const candidates = exact.length > 0 ? exact : matches;
  if (candidates.length === 1) return candidates[0]!;
  if (candidates.length === 0) throw quizNotFound(ref);
  // A title matching several of the caller's quizzes is an error, naming each.
  const listed = candidates
    .slice(0, MAX_CANDIDATES)
    .map((quiz) => `- "${quiz.title}": quiz_id ${quiz.id}, slug ${quiz.slug}`);
  const more = candidates.length > MAX_CANDIDATES ? '\n- ...and more' : '';
  throw new DomainError(
    'ambiguous_reference',
    `"${ref}" matches ${candidates.length > MAX_CANDIDATES ? 'more than ' + MAX_CANDIDATES : candidates.length} of your quizzes. Pass the quiz_id or slug of the one you mean:\n${listed.join('\n')}${more}`,
  );
}

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

export function quizNotFound(ref: string, closest: readonly QuizRef[] = []): DomainError {
  const named = closest.map((quiz) => `"${quiz.title}" (quiz_id ${quiz.id})`);
  return new DomainError(
    'quiz_not_found',
    `No quiz that you own matches "${ref}". Pass the quiz_id, slug or exact title of one of your quizzes; list_quizzes shows them.`,
    [],
    named.length > 0 ? `The closest titles: ${named.join(', ')}.` : undefined,
  );
}

const CLOSEST_TITLES = 3;

/**
 * The titles nearest a reference that matched none, nearest first: those within a third of its
 * length in edits (as looseTitleKey reads them), or holding it, or held in it, whole.
 */
export function closestTitles<T extends QuizRef>(ref: string, quizzes: readonly T[]): T[] {
  const wanted = looseTitleKey(ref);
  if (wanted.length < 3) return [];
  const allowed = Math.max(2, Math.floor(wanted.length / 3));
  return quizzes
    .map((quiz) => {
      const title = looseTitleKey(quiz.title);
      const contained = title.includes(wanted) || wanted.includes(title) ? 0.5 : Infinity;
      const edits = editDistance(wanted, title, allowed);
      return { quiz, score: Math.min(contained, edits <= allowed ? edits : Infinity) };
    })
    .filter((candidate) => candidate.score !== Infinity)
    .sort((a, b) => a.score - b.score)
    .slice(0, CLOSEST_TITLES)
    .map((candidate) => candidate.quiz);
}

/** Levenshtein distance, given up (as `bound + 1`) once every path exceeds `bound`. */
function editDistance(a: string, b: string, bound: number): number {
  if (Math.abs(a.length - b.length) > bound) return bound + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(
        previous[j]! + 1,
        row[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    if (Math.min(...row) > bound) return bound + 1;
    previous = row;
  }
  return previous[b.length]!;
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
  const titles = await deps.repos.quizzes.titlesByOwner(ownerId, LOOSE_MATCH_SCAN);
  const alike = titles.filter((quiz) => looseTitleKey(quiz.title) === loose);
  if (alike.length === 0) throw quizNotFound(ref, closestTitles(ref, titles));
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

/** Slugs name public pages (`/q/:slug`): `[a-z0-9-]`, 1-80 characters (DESIGN.md section 2). */
export const SLUG_MAX_LENGTH = 80;

export function slugify(title: string): string {
  const base = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // strip diacritics: "Café" -> "cafe"
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX_LENGTH)
    .replace(/-+$/g, '');
  return base || 'quiz';
}

/** `base`, then `base-2`, `base-3`, ... each cut so that the whole stays within 80 characters. */
export function slugCandidate(base: string, n: number): string {
  if (n <= 1) return base;
  const suffix = `-${n}`;
  return `${base.slice(0, SLUG_MAX_LENGTH - suffix.length).replace(/-+$/g, '')}${suffix}`;
}

/**
 * A free candidate given the slugs already taken that share the base: the first free one,
 * or with `spread` > 0 one of the first `spread + 1` free ones, chosen by `pick` (random in
 * use), so that writers retrying after a collision with each other stop choosing alike.
 */
export function nextFreeSlug(
  base: string,
  taken: Iterable<string>,
  spread = 0,
  pick: (n: number) => number = () => 0,
): string {
  const used = new Set(taken);
  const free: string[] = [];
  for (let n = 1; free.length <= spread; n += 1) {
    const candidate = slugCandidate(base, n);
    if (!used.has(candidate)) free.push(candidate);
  }
  return free[pick(free.length)] ?? free[0]!;
}

/** Slugs name public pages (`/q/:slug`): `[a-z0-9-]`, 1-80 characters, unique across all users. */
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

export const SLUG_SUFFIX_LENGTH = 6;
const SUFFIX_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A new quiz's slug: the title's words, then a dash and six random characters
 * (`capitals-of-europe-k3x9q2`), within 80 characters. Nothing about other quizzes goes into
 * it, so creating a quiz reveals nothing about anyone else's titles; a collision (one in two
 * billion per title) is retried with a fresh suffix.
 */
export function newSlug(title: string, random: (n: number) => number): string {
  let suffix = '';
  for (let i = 0; i < SLUG_SUFFIX_LENGTH; i += 1) suffix += SUFFIX_ALPHABET[random(SUFFIX_ALPHABET.length)];
  const base = slugify(title)
    .slice(0, SLUG_MAX_LENGTH - SLUG_SUFFIX_LENGTH - 1)
    .replace(/-+$/g, '');
  return `${base}-${suffix}`;
}

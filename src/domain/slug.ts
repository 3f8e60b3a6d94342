/** Slugs name public pages (`/q/:slug`): `[a-z0-9-]`, 1-80 characters, unique across all users. */
export const SLUG_MAX_LENGTH = 80;

/**
 * Letters that Unicode decomposition leaves whole, written the way their readers write them
 * in plain Latin letters (docs/decisions/0017-slugs-by-transliteration.md): the Latin letters
 * of the supported languages and their neighbours, and Arabic letters by a simple romanisation
 * (short-vowel marks dropped, as unvocalised text has none). Keys are lower case.
 */
const TRANSLITERATION: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
  ħ: 'h',
  // Arabic: hamza and its seats, then the alphabet, then the letters borrowed by Persian.
  ء: '',
  أ: 'a',
  إ: 'i',
  آ: 'a',
  ؤ: 'u',
  ئ: 'i',
  ا: 'a',
  ب: 'b',
  ت: 't',
  ث: 'th',
  ج: 'j',
  ح: 'h',
  خ: 'kh',
  د: 'd',
  ذ: 'dh',
  ر: 'r',
  ز: 'z',
  س: 's',
  ش: 'sh',
  ص: 's',
  ض: 'd',
  ط: 't',
  ظ: 'z',
  ع: 'a',
  غ: 'gh',
  ف: 'f',
  ق: 'q',
  ك: 'k',
  ل: 'l',
  م: 'm',
  ن: 'n',
  ه: 'h',
  و: 'w',
  ي: 'y',
  ى: 'a',
  ة: 'a',
  ی: 'y',
  ک: 'k',
  پ: 'p',
  چ: 'ch',
  گ: 'g',
  ژ: 'zh',
};

/** Marks written over or under a letter (Arabic short vowels too), and the tatweel (a stretch of the line). */
const MARKS = /\p{Mn}|\u0640/gu;

/** Arabic-Indic and Persian digits, as the digits 0-9 they are. */
function westernDigits(text: string): string {
  return text.replace(/[\u0660-\u0669\u06f0-\u06f9]/g, (digit) =>
    String((digit.codePointAt(0)! - 0x0660) % 0x90),
  );
}

export function slugify(title: string): string {
  const base = westernDigits(title.toLowerCase().replace(MARKS, ''))
    .replace(/[^\0-\u007f]/g, (char) => TRANSLITERATION[char] ?? char)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // strip diacritics: "Café" -> "cafe"
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

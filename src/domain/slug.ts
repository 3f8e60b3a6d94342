/** Slugs name public pages (`/q/:slug`): `[a-z0-9-]`, 1-80 characters, unique across all users. */
export const SLUG_MAX_LENGTH = 80;

/**
 * Letters that Unicode decomposition leaves whole, written the way their readers write them
 * in plain Latin letters (docs/decisions/0017-slugs-by-transliteration.md): the Latin letters
 * of the supported languages and their neighbours, Arabic letters by a simple romanisation
 * (short-vowel marks dropped, as unvocalised text has none), Cyrillic and Greek letters without
 * diacritics. Keys are lower case and composed (NFC).
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
  // Cyrillic, BGN/PCGN-like without diacritics: Russian, then the letters of Ukrainian,
  // Belarusian, Serbian and Macedonian. A letter shared by several languages reads as in Russian.
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  д: 'd',
  е: 'e',
  ё: 'e',
  ж: 'zh',
  з: 'z',
  и: 'i',
  й: 'y',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ф: 'f',
  х: 'kh',
  ц: 'ts',
  ч: 'ch',
  ш: 'sh',
  щ: 'shch',
  ъ: '',
  ы: 'y',
  ь: '',
  э: 'e',
  ю: 'yu',
  я: 'ya',
  є: 'ye',
  і: 'i',
  ї: 'yi',
  ґ: 'g',
  ў: 'u',
  ђ: 'dj',
  ј: 'j',
  љ: 'lj',
  њ: 'nj',
  ћ: 'c',
  џ: 'dz',
  ѓ: 'gj',
  ќ: 'kj',
  ѕ: 'dz',
  // Greek, ELOT 743-like, once accents are off (see romaniseGreek for the vowel pairs).
  α: 'a',
  β: 'v',
  γ: 'g',
  δ: 'd',
  ε: 'e',
  ζ: 'z',
  η: 'i',
  θ: 'th',
  ι: 'i',
  κ: 'k',
  λ: 'l',
  μ: 'm',
  ν: 'n',
  ξ: 'x',
  ο: 'o',
  π: 'p',
  ρ: 'r',
  σ: 's',
  ς: 's',
  τ: 't',
  υ: 'y',
  φ: 'f',
  χ: 'ch',
  ψ: 'ps',
  ω: 'o',
};

/** Accents, breathings and iota subscripts of Greek letters; the diaeresis stays until the pairs are read. */
const GREEK_ACCENTS = /[\u0300-\u0307\u0309-\u036f]/g;

/**
 * Greek letters lose their accents first (`ί` reads `i`), then the vowel pairs that ELOT 743
 * writes as a pair: `ου` as `ou`, `αυ`/`ευ`/`ηυ` as `av`/`ev`/`iv`; a diaeresis (`αϋ`) keeps
 * them apart. The single letters are left to the table.
 */
function romaniseGreek(text: string): string {
  return text
    .replace(/[\u0370-\u03ff\u1f00-\u1fff]+/gu, (run) => run.normalize('NFD').replace(GREEK_ACCENTS, ''))
    .replace(/ου(?!\u0308)/g, 'ou')
    .replace(/([αεη])υ(?!\u0308)/g, (_pair, vowel: string) => `${TRANSLITERATION[vowel]}v`)
    .replace(/γ([γξχ])/g, (_pair, next: string) => `n${TRANSLITERATION[next]}`);
}

/** Marks written over or under a letter (Arabic short vowels too), and the tatweel (a stretch of the line). */
const MARKS = /\p{Mn}|\u0640/gu;

/** Arabic-Indic and Persian digits, as the digits 0-9 they are. */
function westernDigits(text: string): string {
  return text.replace(/[\u0660-\u0669\u06f0-\u06f9]/g, (digit) =>
    String((digit.codePointAt(0)! - 0x0660) % 0x90),
  );
}

export function slugify(title: string): string {
  // Composed first, so that a letter the table knows (`й`, `ї`) is not split into a letter and a mark.
  const base = westernDigits(romaniseGreek(title.toLowerCase().normalize('NFC')).replace(MARKS, ''))
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

import request from 'supertest';
import { newSlug, slugify, SLUG_MAX_LENGTH } from '../../src/domain/slug';
import { createTestUser, startTestApp, toolCall } from '../helpers/test-app';

describe("slugs: [a-z0-9-], 1-80 characters, the title's words and a random suffix", () => {
  test.each([
    ['Capitals of Europe', 'capitals-of-europe'],
    ['  Café   au lait!! ', 'cafe-au-lait'],
    ['Ünïcödé Äpfel', 'unicode-apfel'],
    ['C++ & Rust: 2024', 'c-rust-2024'],
    ['---', 'quiz'],
    ['日本語のクイズ', 'quiz'],
    ['<script>alert(1)</script>', 'script-alert-1-script'],
    // Every supported language reads in its slug, by transliteration within [a-z0-9-].
    ['Straße der Quiz', 'strasse-der-quiz'],
    ['STRASSE ẞ', 'strasse-ss'],
    ['Łódź', 'lodz'],
    ['Œuvres de Molière', 'oeuvres-de-moliere'],
    ['¿Cuál es la capital de España?', 'cual-es-la-capital-de-espana'],
    ['Capitais do Brasil: ação', 'capitais-do-brasil-acao'],
    ['Ærø og Øresund', 'aero-og-oresund'],
    ['اختبار العلوم', 'akhtbar-alalwm'],
    ['الشَّمْسُ نجمة', 'alshms-njma'],
    ['سؤال ٣ من ١٠', 'sual-3-mn-10'],
    ['پرسش ۱۲', 'prssh-12'],
    // Cyrillic, BGN/PCGN-like without diacritics; hard and soft signs dropped.
    ['Викторина по истории', 'viktorina-po-istorii'],
    ['ЩУКА и жёлтый ёж', 'shchuka-i-zheltyy-ezh'],
    ['Подъезд, соль', 'podezd-sol'],
    ['Їжак, Євген, ґанок', 'yizhak-yevgen-ganok'],
    ['Беларусь: Ўзвышша', 'belarus-uzvyshsha'],
    ['Ђорђе, Љубав, Њива, Ћуприја, Џеп', 'djordje-ljubav-njiva-cuprija-dzep'],
    ['Ѓорѓи, Ќерка, Ѕвезда', 'gjorgji-kjerka-dzvezda'],
    ['Пётр Йорк'.normalize('NFD'), 'petr-york'],
    // Greek, ELOT 743-like: accents off first, vowel pairs read together unless a diaeresis parts them.
    ['Κουίζ ιστορίας', 'kouiz-istorias'],
    ['ΘΕΑΤΡΟ, ΧΟΡΟΣ, ΨΥΧΗ', 'theatro-choros-psychi'],
    ['Αθήνα, Ευρώπη, αϋπνία', 'athina-evropi-aypnia'],
    ['Άγγελος Έλληνας', 'angelos-ellinas'],
    ['Κουίζ ιστορίας'.normalize('NFD'), 'kouiz-istorias'],
  ])('%j -> %j', (title, slug) => {
    expect(slugify(title)).toBe(slug);
  });

  test('long titles are cut to 80 characters without a trailing dash', () => {
    const slug = slugify(`${'word '.repeat(40)}end`);
    expect(slug.length).toBeLessThanOrEqual(SLUG_MAX_LENGTH);
    expect(slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  test("a new slug is the title's words and six random characters", () => {
    let i = 0;
    const counting = (n: number) => i++ % n;
    expect(newSlug('Capitals of Europe', counting)).toBe('capitals-of-europe-abcdef');
    expect(newSlug('日本語', () => 35)).toBe('quiz-999999');
  });

  test('a new slug stays within 80 characters, without a double dash', () => {
    const slug = newSlug(`${'word '.repeat(40)}end`, () => 0);
    expect(slug.length).toBeLessThanOrEqual(SLUG_MAX_LENGTH);
    expect(slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*-aaaaaa$/);
  });
});

describe('a new quiz is named by its transliterated title', () => {
  test('create_quiz answers readable slugs for German, Polish, Arabic, Russian and Greek titles', async () => {
    const app = await startTestApp();
    try {
      const user = await createTestUser(app);
      for (const [title, start] of [
        ['Straße der Quiz', 'strasse-der-quiz-'],
        ['Łódź', 'lodz-'],
        ['اختبار العلوم', 'akhtbar-alalwm-'],
        ['Викторина по истории', 'viktorina-po-istorii-'],
        ['Κουίζ ιστορίας', 'kouiz-istorias-'],
      ] as const) {
        const res = await request(app.app)
          .post('/api/mcp')
          .set('Authorization', `Bearer ${user.apiKey}`)
          .set('Accept', 'application/json')
          .send(toolCall('create_quiz', { title, questions: [{ type: 'yes_no', text: 'Ready?' }] }))
          .expect(200);
        const slug = res.body.result.structuredContent.slug as string;
        expect(slug).toMatch(new RegExp(`^${start}[a-z0-9]{6}$`));
      }
    } finally {
      await app.close();
    }
  });
});

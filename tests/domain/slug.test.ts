import { newSlug, slugify, SLUG_MAX_LENGTH } from '../../src/domain/slug';

describe("slugs: [a-z0-9-], 1-80 characters, the title's words and a random suffix", () => {
  test.each([
    ['Capitals of Europe', 'capitals-of-europe'],
    ['  Café   au lait!! ', 'cafe-au-lait'],
    ['Ünïcödé Äpfel', 'unicode-apfel'],
    ['C++ & Rust: 2024', 'c-rust-2024'],
    ['---', 'quiz'],
    ['日本語のクイズ', 'quiz'],
    ['<script>alert(1)</script>', 'script-alert-1-script'],
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

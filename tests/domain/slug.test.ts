import { nextFreeSlug, slugCandidate, slugify, SLUG_MAX_LENGTH } from '../../src/domain/slug';

describe('slugs (DESIGN.md section 2: [a-z0-9-], 1-80 characters, -2, -3 on collision)', () => {
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

  test('collision suffixes keep the slug within 80 characters', () => {
    const base = 'a'.repeat(80);
    expect(slugCandidate(base, 1)).toBe(base);
    expect(slugCandidate(base, 2)).toBe(`${'a'.repeat(78)}-2`);
    expect(slugCandidate(base, 12)).toHaveLength(80);
  });

  test('the next free slug skips every taken candidate', () => {
    expect(nextFreeSlug('quiz', [])).toBe('quiz');
    expect(nextFreeSlug('quiz', ['quiz'])).toBe('quiz-2');
    expect(nextFreeSlug('quiz', ['quiz', 'quiz-2', 'quiz-3', 'quiz-abc'])).toBe('quiz-4');
    expect(nextFreeSlug('quiz', ['quiz-2'])).toBe('quiz');
  });
});

test('retrying writers can be spread over the first few free slugs', () => {
  expect(nextFreeSlug('quiz', ['quiz'], 2, (n) => n - 1)).toBe('quiz-4');
  expect(nextFreeSlug('quiz', ['quiz', 'quiz-3'], 1, (n) => n - 1)).toBe('quiz-4');
});

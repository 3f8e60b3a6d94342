// A teacher's quiz from draft to results in Chromium, at 390 and 1280 px, light and dark, in English
// and Arabic: the teacher previews a draft (marked as a preview, storing nothing), duplicates it,
// sets the copy's closing time with the date-time picker, publishes it; a respondent answers one
// question right and one wrong, and the review marks them ✓ and ✗ with English and Arabic text
// each read in its own direction. The preview, the review, the results' sections and the
// respondent's page: no sideways scroll, and axe-core finds nothing serious or critical. One
// browser and one log-in; a context per width and scheme, the four side by side. Screenshots go
// to test-artifacts/.
import type { Browser, Page } from 'playwright-core';
import { createQuiz } from '../../src/domain/quizzes/create-quiz';
import { seriousViolations } from '../helpers/axe';
import { describeWithBrowser, launchBrowser, loggedInPage, screenshot } from '../helpers/browser';
import { createTestUser, startTestApp, type TestApp, type TestUser } from '../helpers/test-app';

const TIMEOUT = 240_000;
const ZONE = 'Asia/Kolkata';

/** Each language's quiz: its own words, with text in the other script mixed in. */
const QUIZZES = {
  en: {
    title: 'Planets — الكواكب',
    latin: 'Is the Sun a star?',
    arabic: 'ما أقرب كوكب إلى الشمس؟',
    right: 'Mercury عطارد',
    wrong: 'Venus الزهرة',
    yes: 'Yes',
    name: 'Your name',
    submit: 'Submit answers',
  },
  ar: {
    title: 'الكواكب (Planets)',
    latin: 'Is the Sun a star?',
    arabic: 'ما أقرب كوكب إلى الشمس؟',
    right: 'عطارد Mercury',
    wrong: 'الزهرة Venus',
    yes: 'نعم',
    name: 'اسمك',
    submit: 'إرسال الإجابات',
  },
} as const;
type Language = keyof typeof QUIZZES;

/**
 * Where the first and last characters of an element's text are drawn: text read left to right
 * has its first character on the left, right to left on the right. A question in another script
 * without its own direction comes out scrambled ("?Is the Sun a star" on an Arabic page).
 */
async function readsLeftToRight(page: Page, selector: string, text: string): Promise<boolean> {
  // A string, evaluated in the page: the tests' TypeScript has no DOM types.
  return page.evaluate<boolean>(`(() => {
    const selector = ${JSON.stringify(selector)};
    const text = ${JSON.stringify(text)};
    const element = [...document.querySelectorAll(selector)].find((e) => e.textContent.trim() === text);
    if (!element) throw new Error('no ' + selector + ' reading ' + text);
    const node = [...element.childNodes].find((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
    const at = (offset) => {
      const range = document.createRange();
      range.setStart(node, offset);
      range.setEnd(node, offset + 1);
      return range.getBoundingClientRect();
    };
    const start = node.textContent.indexOf(text);
    return at(start).left < at(start + text.length - 1).left;
  })()`);
}

const sidewaysOverflow = (page: Page) =>
  page.evaluate<number>('document.scrollingElement.scrollWidth - window.innerWidth');

describeWithBrowser(
  'a class journey in Chromium: preview, duplicate, picker, publish, review, results',
  () => {
    let app: TestApp;
    let browser: Browser;
    let owner: TestUser;
    const drafts: Partial<Record<Language, string>> = {};

    beforeAll(async () => {
      app = await startTestApp();
      browser = await launchBrowser();
      owner = await createTestUser(app, 'class-journey');
      await app.database.prisma.user.update({ where: { id: owner.id }, data: { timeZone: ZONE } });
      for (const language of ['en', 'ar'] as const) {
        const words = QUIZZES[language];
        const quiz = await createQuiz(app.deps, owner.id, {
          title: words.title,
          questions: [
            { type: 'yes_no', text: words.latin, correct_answer: 'yes', explanation: 'It is.' },
            {
              type: 'multiple_choice',
              text: words.arabic,
              options: [
                { label: words.right, score: 2 },
                { label: words.wrong, score: 0 },
              ],
              explanation: 'عطارد (Mercury) is the closest.',
            },
          ],
          settings: {
            language,
            collect_name: true,
            show_score_to_respondent: true,
            show_correct_answers: 'after_submit',
          },
        });
        drafts[language] = quiz.quiz_id;
      }
    }, TIMEOUT);
    afterAll(async () => {
      await browser?.close();
      await app?.close();
    });

    const combinations = [390, 1280].flatMap((width) =>
      [false, true].map((dark) => ({ width, dark, languages: ['en', 'ar'] as Language[] })),
    );

    test(
      'at 390 and 1280 px, light and dark, in English and Arabic',
      async () => {
        // One log-in, its cookies handed to a context per width and scheme; the four run side by
        // side (each its own quiz copies), the languages one after the other within each.
        const login = await loggedInPage(browser, app.baseUrl, owner, 1280);
        const storageState = await login.context().storageState();
        await login.context().close();
        const problems: Record<string, string[]> = {};
        await Promise.all(
          combinations.map(async ({ width, dark, languages }) => {
            const context = await browser.newContext({
              viewport: { width, height: 900 },
              colorScheme: dark ? 'dark' : 'light',
              storageState,
            });
            try {
              const page = await context.newPage();
              for (const language of languages) {
                const name = `${width}-${dark ? 'dark' : 'light'}-${language}`;
                problems[name] = await journey(page, language, name);
              }
            } finally {
              await context.close();
            }
          }),
        );
        expect(Object.keys(problems)).toHaveLength(combinations.length * 2);
        expect(problems).toEqual(Object.fromEntries(Object.keys(problems).map((name) => [name, []])));
      },
      TIMEOUT,
    );

    /** One pass of the journey; answers the new pages' axe findings and sideways scrolls. */
    async function journey(page: Page, language: Language, name: string): Promise<string[]> {
      const words = QUIZZES[language];
      const found: string[] = [];
      const check = async (label: string, shot = false, on: Page = page) => {
        const overflow = await sidewaysOverflow(on);
        if (overflow > 0) found.push(`${label}: scrolls sideways by ${overflow}px`);
        for (const violation of await seriousViolations(on)) found.push(`${label}: ${violation}`);
        if (shot) await screenshot(on, `class-journey-${label}-${name}`);
      };

      // Preview the draft: a new tab, marked as a preview, with its questions; nothing is stored.
      await page.goto(`${app.baseUrl}/dashboard/quizzes/${drafts[language]}`);
      const [preview] = await Promise.all([
        page.context().waitForEvent('page'),
        page.getByRole('button', { name: 'Preview' }).click(),
      ]);
      await preview.locator('.notice.preview').waitFor();
      await preview.getByText(words.latin).waitFor();
      await check('preview', false, preview);
      await preview.close();

      // Duplicate it: the copy is a new draft, and the page leads to it.
      await page.getByRole('button', { name: 'Duplicate' }).click();
      await page.getByText('is a new draft').waitFor();
      const copyId = /\/dashboard\/quizzes\/([^/?#]+)$/.exec(page.url())![1]!;
      expect(copyId).not.toBe(drafts[language]);

      // Its closing time with the picker, in the account's zone: 09:30 in Kolkata is 04:00 UTC.
      await page.getByRole('link', { name: 'Edit the quiz' }).click();
      const closes = page.getByLabel('Closes at (optional)');
      expect(await closes.getAttribute('type')).toBe('datetime-local');
      await closes.fill('2031-03-01T09:30');
      await page.getByRole('button', { name: 'Save changes' }).first().click();
      await page.getByText('are saved').waitFor();
      const saved = await app.database.prisma.quiz.findUniqueOrThrow({ where: { id: copyId } });
      expect(saved.closesAt?.toISOString()).toBe('2031-03-01T04:00:00.000Z');

      await page.getByRole('button', { name: 'Publish' }).click();
      await page.getByText('is published').first().waitFor();
      const published = await app.database.prisma.quiz.findUniqueOrThrow({ where: { id: copyId } });
      expect(published.status).toBe('published');
      expect(await app.database.prisma.response.count({ where: { quizId: drafts[language] } })).toBe(0);

      // A respondent, on the same screen: the first answer right, the second wrong.
      const respondent = await page.context().newPage();
      try {
        await respondent.goto(`${app.baseUrl}/q/${published.slug}`);
        await respondent.getByLabel(words.name).fill('Layla ليلى');
        await respondent.getByRole('radio', { name: words.yes, exact: true }).check();
        await respondent.getByRole('radio', { name: words.wrong }).check();
        await respondent.getByRole('button', { name: words.submit }).click();
        await respondent.waitForURL(/\/r\//);
        const marks = await respondent.locator('.review-item .verdict-mark').allInnerTexts();
        expect(marks.map((mark) => mark.trim()[0])).toEqual(['✓', '✗']);
        // The English question reads left to right and the Arabic one right to left, on either page.
        expect(await readsLeftToRight(respondent, '.review-item [dir="auto"]', words.latin)).toBe(true);
        expect(await readsLeftToRight(respondent, '.review-item [dir="auto"]', words.arabic)).toBe(false);
        await check('review', true, respondent);
      } finally {
        await respondent.close();
      }

      // The results' sections, then the respondent's page from the responses.
      const results = `${app.baseUrl}/dashboard/quizzes/${copyId}/results`;
      for (const section of ['summary', 'questions', 'items', 'responses']) {
        await page.goto(`${results}/${section}`);
        await check(section, section === 'responses');
      }
      await page.getByRole('link', { name: 'Layla ليلى', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Layla ليلى' }).waitFor();
      const marks = await page.locator('.review-item .verdict-mark').allInnerTexts();
      expect(marks.map((mark) => mark.trim())).toEqual(['✓ Right', '✗ Wrong']);
      expect(await readsLeftToRight(page, '.review-item [dir="auto"]', words.latin)).toBe(true);
      expect(await readsLeftToRight(page, '.review-item [dir="auto"]', words.arabic)).toBe(false);
      await check('respondent', true);
      return found;
    }
  },
);

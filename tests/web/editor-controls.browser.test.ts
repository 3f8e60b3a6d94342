// The editor's controls in Chromium: every button style of the stylesheet is readable (WCAG AA,
// 4.5:1, from the colours Chromium computes) in light and dark, on the editor itself and on a
// sample of every class combination the stylesheet gives buttons; and adding or moving a question
// brings the page back where the teacher was, with the focus on what changed.
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { createQuiz } from '../../src/domain/quizzes/create-quiz';
import { seriousViolations } from '../helpers/axe';
import { describeWithBrowser, launchBrowser, loggedInPage, scrollsSideways } from '../helpers/browser';
import { createTestUser, startTestApp, type TestApp, type TestUser } from '../helpers/test-app';

const TIMEOUT = 120_000;
const AA = 4.5;

/** Every class list the stylesheet styles a button with: `button.secondary.small.danger` gives "secondary small danger". */
function buttonClassLists(): string[] {
  const css = fs.readFileSync(path.resolve(__dirname, '../../src/web/assets/style.css'), 'utf8');
  const lists = new Set<string>(['']);
  for (const match of css.matchAll(/(?:^|[\s,])(?:button|\.button)((?:\.[a-z][a-z-]*)+)/gm)) {
    lists.add(
      match[1]!
        .split('.')
        .filter(Boolean)
        .filter((name) => name !== 'button')
        .join(' '),
    );
  }
  return [...lists];
}

interface Measured {
  what: string;
  ratio: number;
  fg: string;
  bg: string;
}

/**
 * The contrast of every visible button on the page, text against the first opaque background
 * behind it, from the colours Chromium computes (WCAG 2 relative luminance). Run in the page.
 */
const MEASURE_BUTTONS = `(() => {
  const rgb = (value) => (value.match(/[\\d.]+/g) || []).map(Number);
  const channel = (c) => { const s = c / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; };
  const luminance = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  const background = (element) => {
    for (let node = element; node; node = node.parentElement) {
      const colour = getComputedStyle(node).backgroundColor;
      const parts = rgb(colour);
      if (parts.length === 3 || (parts.length === 4 && parts[3] > 0)) return colour;
    }
    return 'rgb(255, 255, 255)';
  };
  return [...document.querySelectorAll('button, a.button')]
    .filter((element) => {
      const box = element.getBoundingClientRect();
      return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== 'hidden';
    })
    .map((element) => {
      const fg = getComputedStyle(element).color;
      const bg = background(element);
      const a = luminance(rgb(fg));
      const b = luminance(rgb(bg));
      const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      const name = (element.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 40);
      return { what: element.tagName.toLowerCase() + '.' + [...element.classList].join('.') + ' "' + name + '"', ratio: Math.round(ratio * 100) / 100, fg, bg };
    });
})()`;

const buttonContrasts = (page: Page) => page.evaluate<Measured[]>(MEASURE_BUTTONS);

/** Adds a button and a link-styled button of every class list to the page's main column. */
const addSample = (lists: string[]) => `(() => {
  const sample = document.createElement('div');
  for (const classes of ${JSON.stringify(lists)}) {
    const button = document.createElement('button');
    button.className = classes;
    button.textContent = 'button ' + classes;
    const link = document.createElement('a');
    link.href = '#';
    link.className = 'button ' + classes;
    link.textContent = 'link ' + classes;
    sample.append(button, link);
  }
  document.querySelector('main').append(sample);
})()`;

const activeId = (page: Page) =>
  page.evaluate<string>('document.activeElement ? document.activeElement.id : ""');
const scrollY = (page: Page) => page.evaluate<number>('window.scrollY');

describeWithBrowser('the editor’s controls in Chromium', () => {
  let app: TestApp;
  let browser: Browser;
  let owner: TestUser;
  let quizId: string;

  beforeAll(async () => {
    app = await startTestApp();
    browser = await launchBrowser();
    owner = await createTestUser(app, 'editor-controls');
    const quiz = await createQuiz(app.deps, owner.id, {
      title: 'Controls',
      questions: [
        { type: 'yes_no', text: 'First?', correct_answer: 'yes' },
        {
          type: 'multiple_choice',
          text: 'Second?',
          options: [
            { label: 'A', score: 1 },
            { label: 'B', score: 0 },
          ],
        },
        { type: 'yes_no', text: 'Third?', correct_answer: 'no' },
      ],
    });
    quizId = quiz.quiz_id;
  }, TIMEOUT);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  for (const dark of [false, true]) {
    test(
      `every button style reads at 4.5:1 or more, ${dark ? 'dark' : 'light'}`,
      async () => {
        const page = await loggedInPage(browser, app.baseUrl, owner, 1280, dark);
        await page.goto(`${app.baseUrl}/dashboard/quizzes/${quizId}/edit`);
        const onEditor = await buttonContrasts(page);
        // The editor's own buttons, Remove among them (once red on red).
        expect(
          onEditor.some((control) => control.what.includes('danger') && control.what.includes('Remove')),
        ).toBe(true);
        // A sample of every class list the stylesheet gives a button, as a button and as a link.
        const lists = buttonClassLists();
        expect(lists).toEqual(expect.arrayContaining(['secondary', 'small', 'danger', 'link']));
        await page.evaluate(addSample(lists));
        const all = await buttonContrasts(page);
        const weak = all.filter((control) => control.ratio < AA);
        expect(weak).toEqual([]);
        expect(all.length).toBeGreaterThan(onEditor.length);
        await page.context().close();
      },
      TIMEOUT,
    );
  }

  test(
    'adding and moving a question lands where the change was, with the focus on it (390 px)',
    async () => {
      const page = await loggedInPage(browser, app.baseUrl, owner, 390);
      await page.goto(`${app.baseUrl}/dashboard/quizzes/${quizId}/edit`);
      await page.getByRole('button', { name: 'Add a number question' }).click();
      await page.waitForURL(/#questions-3-text$/);
      expect(await activeId(page)).toBe('questions-3-text');
      // The new question is on screen, far below the top of the form.
      const added = await page.locator('#questions-3').boundingBox();
      expect(added!.y).toBeLessThan(900);
      expect(await scrollY(page)).toBeGreaterThan(1000);
      await page.locator('#questions-3-text').fill('How many moons?');

      await page.getByRole('button', { name: 'Move up question 4' }).click();
      await page.waitForURL(/#questions-2-up$/);
      expect(await activeId(page)).toBe('questions-2-up');
      expect(await page.locator('#questions-2-text').inputValue()).toBe('How many moons?');
      expect(await scrollY(page)).toBeGreaterThan(1000);

      await page.getByRole('button', { name: 'Add an option to question 2' }).click();
      await page.waitForURL(/#questions-1-options-2-label$/);
      expect(await activeId(page)).toBe('questions-1-options-2-label');
      expect(await scrollsSideways(page)).toBe(false);
      expect(await seriousViolations(page)).toEqual([]);
      await page.context().close();
    },
    TIMEOUT,
  );
});

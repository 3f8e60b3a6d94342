// A refused quiz form speaks the quiz's language, not the browser's: on an English browser, an
// Arabic quiz's form words every problem from the Arabic catalogue, by the issue's code (never
// the domain's English), on both databases. The JSON route's problem body stays in English, as
// the API has always answered. The test walks the closed list of codes: each code a respondent
// can meet is met here (and has its words in every catalogue), or is listed as one no respondent
// meets.
import request from 'supertest';
import { FIELD_ISSUE_CODES, type FieldIssueCode } from '../../src/domain/errors';
import { createQuiz } from '../../src/domain/quizzes/create-quiz';
import { publishQuiz } from '../../src/domain/quizzes/publish-quiz';
import { LANGUAGES } from '../../src/domain/quiz-settings';
import { CATALOGS, translator } from '../../src/respondent/i18n';
import type { MessageKey } from '../../src/respondent/messages/en';
import { createTestUser, describeEachDatabase, startTestApp, type TestApp } from '../helpers/test-app';

let app: TestApp;
let ownerId: string;

interface Quiz {
  slug: string;
  ids: Record<string, string>;
}

let everyType: Quiz;
let anyAnswer: Quiz;
let limited: Quiz;

const QUESTIONS = [
  { type: 'yes_no', text: 'Is water wet?', points: 1, correct_answer: 'yes' },
  {
    type: 'multiple_choice',
    text: 'Longest river?',
    options: [
      { label: 'Nile', score: 1 },
      { label: 'Thames', score: 0 },
    ],
  },
  {
    type: 'multiple_select',
    text: 'Which are prime?',
    options: [
      { label: 'Two', score: 1 },
      { label: 'Four', score: -1 },
    ],
  },
  { type: 'short_text', text: 'Capital of Peru?', points: 1, accepted_answers: ['Lima'] },
  { type: 'number', text: 'Half of seven?', points: 1, correct_number: 3.5 },
] as const;

async function publish(settings: Record<string, unknown>): Promise<Quiz> {
  const quiz = await createQuiz(app.deps, ownerId, {
    title: 'اختبار',
    questions: QUESTIONS.map((question) => ({ ...question })) as never,
    settings: { language: 'ar', ...settings } as never,
  });
  await publishQuiz(app.deps, ownerId, quiz.quiz_id);
  return {
    slug: quiz.slug,
    ids: Object.fromEntries(quiz.questions.map((question) => [question.type, question.question_id])),
  };
}

/** A whole form: a name, an email, and a valid answer to every question, then the case's changes. */
function answers(quiz: Quiz, change: Record<string, string | string[] | undefined>): string {
  const form: Record<string, string | string[] | undefined> = {
    name: 'Amal',
    email: 'amal@example.com',
    [`q_${quiz.ids.yes_no}`]: 'yes',
    [`q_${quiz.ids.multiple_choice}`]: '0',
    [`q_${quiz.ids.multiple_select}`]: ['', '0'],
    [`q_${quiz.ids.short_text}`]: 'Lima',
    [`q_${quiz.ids.number}`]: '3,5',
    ...change,
  };
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(form)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value])
      body.append(name, one);
  }
  return body.toString();
}

interface Case {
  quiz: () => Quiz;
  change: (
    quiz: Quiz,
  ) => Record<string, string | string[] | undefined> | Promise<Record<string, string | string[] | undefined>>;
  key: MessageKey;
  values?: Record<string, string | number>;
  /** Said in the summary only: nothing answered, or an email the attempt's form no longer asks for. */
  summaryOnly?: true;
}

/** Every code a respondent can meet on the form, each where it can happen. */
const MET: Partial<Record<FieldIssueCode, Case[]>> = {
  missing: [
    { quiz: () => everyType, change: () => ({ name: '' }), key: 'error.nameMissing' },
    { quiz: () => everyType, change: () => ({ email: ' ' }), key: 'error.emailMissing' },
    {
      quiz: () => everyType,
      change: (quiz) => ({ [`q_${quiz.ids.number}`]: undefined }),
      key: 'error.answerQuestion',
    },
    {
      quiz: () => anyAnswer,
      change: (quiz) => Object.fromEntries(Object.values(quiz.ids).map((id) => [`q_${id}`, undefined])),
      key: 'error.answerOne',
      summaryOnly: true,
    },
  ],
  too_long: [
    {
      quiz: () => everyType,
      change: () => ({ name: 'ا'.repeat(201) }),
      key: 'error.tooLong',
      values: { max: 200 },
    },
    {
      quiz: () => everyType,
      change: () => ({ email: `${'a'.repeat(250)}@example.com` }),
      key: 'error.tooLong',
      values: { max: 254 },
    },
    {
      quiz: () => everyType,
      change: (quiz) => ({ [`q_${quiz.ids.short_text}`]: 'ل'.repeat(501) }),
      key: 'error.tooLong',
      values: { max: 500 },
    },
  ],
  invalid: [
    { quiz: () => everyType, change: () => ({ email: 'amal at example' }), key: 'error.emailInvalid' },
    {
      quiz: () => everyType,
      change: (quiz) => ({ [`q_${quiz.ids.number}`]: 'three' }),
      key: 'error.numberInvalid',
    },
    {
      quiz: () => everyType,
      change: (quiz) => ({ [`q_${quiz.ids.multiple_choice}`]: '7' }),
      key: 'error.chooseListed',
    },
    {
      quiz: () => everyType,
      change: (quiz) => ({ [`q_${quiz.ids.multiple_select}`]: ['', '7'] }),
      key: 'error.tickListed',
    },
  ],
  not_the_attempt_email: [
    {
      quiz: () => limited,
      // An attempt started with one address, submitted with another.
      change: async (quiz) => {
        const start = await request(app.app)
          .post(`/q/${quiz.slug}/start`)
          .type('form')
          .send({ email: 'amal@example.com' });
        expect(start.status).toBe(303);
        const token = decodeURIComponent(/attempt=([^&]+)/.exec(start.headers.location!)![1]!);
        return { attempt_token: token, email: 'other@example.com' };
      },
      key: 'error.emailNotStarted',
      summaryOnly: true,
      values: { email: 'amal@example.com' },
    },
  ],
};

/** Codes no respondent meets on the form, and why. */
const NOT_MET: Partial<Record<FieldIssueCode, string>> = {
  too_many: "the quiz's input only",
  too_few: "the quiz's input only",
  not_a_number: "a number answer's problem is `invalid`, worded by its type",
  not_whole: "the quiz's input only",
  too_small: "the quiz's input only",
  too_large: "the quiz's input only",
  more_than_questions: "a quiz's setting",
  not_one_of: "the quiz's input only",
  not_a_time: "a quiz's setting",
  needs_setting: "a quiz's setting",
  not_after: "a quiz's setting",
  passed: "a quiz's setting",
  needs_questions: "a quiz's edit",
  unknown_field: "the tools' input only",
  not_for_type: "the tools' input only",
  repeated: "the quiz's input only",
  not_with: "the quiz's input only",
  blank_without_entry: "the quiz's input only",
  blank_without_marker: "the quiz's input only",
};

const escaped = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

test('every code is met by a form here, or listed as one no respondent meets', () => {
  expect([...Object.keys(MET), ...Object.keys(NOT_MET)].sort()).toEqual([...FIELD_ISSUE_CODES].sort());
});

test('each message a respondent can meet has its own words in every catalogue', () => {
  const keys = new Set(Object.values(MET).flatMap((cases) => cases!.map((one) => one.key)));
  for (const key of keys) {
    for (const language of LANGUAGES) {
      expect({ key, language, words: CATALOGS[language][key].trim().length > 0 }).toEqual({
        key,
        language,
        words: true,
      });
      if (language !== 'en') expect(CATALOGS[language][key]).not.toBe(CATALOGS.en[key]);
    }
  }
});

const cases = Object.entries(MET).flatMap(([code, list]) =>
  list!.map(
    (one) => [`${code}: ${one.key}${one.values ? ` ${JSON.stringify(one.values)}` : ''}`, one] as const,
  ),
);

describeEachDatabase("an Arabic quiz's form", (provider) => {
  beforeAll(async () => {
    app = await startTestApp({ provider });
    ownerId = (await createTestUser(app, 'form-language')).id;
    everyType = await publish({ collect_name: true, collect_email: true, require_all_answers: true });
    anyAnswer = await publish({ collect_name: false, collect_email: false, require_all_answers: false });
    limited = await publish({ collect_name: false, collect_email: true, max_attempts_per_email: 1 });
  });
  afterAll(() => app.close());

  test.each(cases)(
    '%s: in Arabic on an English browser, beside the field and in the summary',
    async (_name, one) => {
      const quiz = one.quiz();
      const res = await request(app.app)
        .post(`/q/${quiz.slug}`)
        .set('Accept-Language', 'en-US,en;q=0.9')
        .type('form')
        .send(answers(quiz, await one.change(quiz)));
      expect(res.status).toBe(422);
      expect(res.text).toMatch(/<html lang="ar"\s+dir="rtl"/);
      const arabic = escaped(translator('ar').t(one.key, one.values));
      const english = escaped(translator('en').t(one.key, one.values));
      // In the summary, and beside the field it concerns.
      expect(res.text.split(arabic).length - 1).toBe(one.summaryOnly ? 1 : 2);
      expect(res.text).not.toContain(english);
    },
  );

  test("the JSON route's problem body keeps the API's English for the same quiz", async () => {
    const res = await request(app.app)
      .post(`/api/quizzes/${everyType.slug}/responses`)
      .set('Accept-Language', 'ar')
      .send({
        respondent: { name: '', email: 'amal at example' },
        answers: [{ question_id: everyType.ids.number, number: 'three' }],
      });
    expect(res.status).toBe(422);
    const messages = (res.body as { errors: Array<{ field: string; message: string }> }).errors;
    expect(messages).toEqual(
      expect.arrayContaining([
        { field: 'respondent.name', message: 'Enter your name.' },
        { field: 'respondent.email', message: 'Enter an email address such as name@example.com.' },
      ]),
    );
    expect(JSON.stringify(messages)).not.toMatch(/[\u0600-\u06ff]/);
  });
});

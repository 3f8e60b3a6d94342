// The quiz editor words every refusal it can meet with its own labels ("Question 2, Right
// number: fill this in"), from the issue's code: never an API name (`correct_number`), never the
// tools' English. The test walks the closed list of codes, so a new code fails here until the
// editor words it and a form here meets it (or it is listed as one the editor cannot meet).
import { FIELD_ISSUE_CODES, type FieldIssueCode } from '../../src/domain/errors';
import { LIMITS } from '../../src/domain/limits';
import { createQuiz } from '../../src/domain/quizzes/create-quiz';
import { publishQuiz } from '../../src/domain/quizzes/publish-quiz';
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';
import { csrfFrom, errorSummaryText, logIn, newAgent, squash, type Agent } from './dashboard-helpers';
import { formOf, type Form } from './editor-form';

let app: TestApp;
let agent: Agent;
let ownerId: string;

beforeAll(async () => {
  app = await startTestApp();
  const owner = await createTestUser(app, 'editor-issues');
  ownerId = owner.id;
  agent = newAgent(app);
  expect((await logIn(agent, owner.email, owner.password)).status).toBe(303);
});
afterAll(() => app.close());

const post = (path: string, form: Form, action = 'save') =>
  agent
    .post(path)
    .type('form')
    .send({ ...form, _action: action });

/** A new quiz's form with a valid yes/no question, then one question of each `types` added. */
async function newQuizForm(...types: string[]): Promise<Form> {
  const page = await agent.get('/dashboard/quizzes/new');
  let form = formOf(page.text);
  form.title = 'Refusals';
  form['questions[0][text]'] = 'Is water wet?';
  for (const type of types) form = formOf((await post('/dashboard/quizzes/new', form, `add:${type}`)).text);
  return form;
}

interface Case {
  /** The form as sent, and where it is sent (a new quiz unless given). */
  form: () => Promise<{ form: Form; path?: string }>;
  /** The line of the summary, in the editor's words. */
  says: string;
  /** The id of the field the summary links to and the error sits beside. */
  at: string;
}

const newQuiz =
  (change: (form: Form) => void, ...types: string[]) =>
  async () => {
    const form = await newQuizForm(...types);
    change(form);
    return { form };
  };

/** Every code a save of the editor can meet, each met by a form a teacher could send. */
const MET: Partial<Record<FieldIssueCode, Case>> = {
  missing: {
    form: newQuiz((form) => {
      form['questions[1][text]'] = 'How many legs has a spider?';
    }, 'number'),
    says: 'Question 2, Right number: fill this in',
    at: 'questions-1-correct_number',
  },
  too_long: {
    form: newQuiz((form) => {
      form.title = 'T'.repeat(LIMITS.titleMax + 1);
    }),
    says: `Title: use at most ${LIMITS.titleMax} characters`,
    at: 'title',
  },
  too_many: {
    form: newQuiz((form) => {
      form['questions[1][text]'] = 'Name a colour';
      form['questions[1][accepted_answers]'] = Array.from(
        { length: LIMITS.acceptedAnswersMax + 1 },
        (_, i) => `colour ${i}`,
      ).join('\n');
    }, 'short_text'),
    says: `Question 2, Accepted answers: at most ${LIMITS.acceptedAnswersMax} are allowed`,
    at: 'questions-1-accepted_answers',
  },
  repeated: {
    form: newQuiz((form) => {
      form['questions[1][text]'] = 'Put the life of a butterfly in order';
      form['questions[1][items]'] = 'Egg\nLarva\nEgg';
    }, 'ordering'),
    says: 'Question 2, Items: repeats line 1: give each its own text',
    at: 'questions-1-items',
  },
  blank_without_entry: {
    form: newQuiz((form) => {
      form['questions[1][text]'] = 'Lima is the capital of [[1]], on the [[2]] coast.';
      form['questions[1][blanks]'] = 'Peru | Perú';
    }, 'fill_in_blanks'),
    says: 'Question 2, Blanks: the question has [[2]] but no line for it: add line 2, or remove the marker',
    at: 'questions-1-blanks',
  },
  blank_without_marker: {
    form: newQuiz((form) => {
      form['questions[1][text]'] = 'Lima is the capital of [[1]].';
      form['questions[1][blanks]'] = 'Peru | Perú\nPacific';
    }, 'fill_in_blanks'),
    says: 'Question 2, Blanks: line 2 has no [[2]] in the question: write it where the blank goes, or remove the line',
    at: 'questions-1-blanks',
  },
  too_few: {
    form: async () => {
      const form = await newQuizForm('multiple_choice');
      form['questions[1][text]'] = 'Which river is longest?';
      form['questions[1][options][0][label]'] = 'Nile';
      return { form: formOf((await post('/dashboard/quizzes/new', form, 'remove-option:1:1')).text) };
    },
    says: 'Question 2, Options: add at least 2 (there is 1)',
    at: 'questions-1-options',
  },
  not_a_number: {
    form: newQuiz((form) => {
      form['questions[1][text]'] = 'Half of seven?';
      form['questions[1][correct_number]'] = 'three and a half';
    }, 'number'),
    says: 'Question 2, Right number: enter a number, such as 3 or 3.5',
    at: 'questions-1-correct_number',
  },
  not_whole: {
    form: newQuiz((form) => {
      form['questions[1][text]'] = 'Which river is longest?';
      form['questions[1][options][0][label]'] = 'Nile';
      form['questions[1][options][0][score]'] = '1.5';
      form['questions[1][options][1][label]'] = 'Thames';
    }, 'multiple_choice'),
    says: 'Question 2, option 1, Score: enter a whole number',
    at: 'questions-1-options-0-score',
  },
  too_small: {
    form: newQuiz((form) => {
      form['questions[1][text]'] = 'Half of seven?';
      form['questions[1][correct_number]'] = '3,5';
      form['questions[1][tolerance]'] = '-1';
    }, 'number'),
    says: 'Question 2, Tolerance: use 0 or more',
    at: 'questions-1-tolerance',
  },
  too_large: {
    form: newQuiz((form) => {
      form['questions[0][points]'] = String(LIMITS.pointsMax + 1);
    }),
    says: `Question 1, Points: use ${LIMITS.pointsMax} or less`,
    at: 'questions-0-points',
  },
  more_than_questions: {
    form: newQuiz((form) => {
      form['settings[question_pool_size]'] = '3';
    }),
    says: 'Questions drawn per attempt: the quiz has 1 question: use at most 1, or leave it empty to draw them all',
    at: 'settings-question_pool_size',
  },
  not_one_of: {
    form: newQuiz((form) => {
      form['settings[language]'] = 'tlh';
    }),
    says: 'Language of the public pages: choose one of the values listed',
    at: 'settings-language',
  },
  not_a_time: {
    form: newQuiz((form) => {
      form['settings[closes_at]'] = 'next Friday';
    }),
    says: 'Closes at: pick a date and a time',
    at: 'settings-closes_at',
  },
  needs_setting: {
    form: newQuiz((form) => {
      delete form['settings[collect_email]'];
      form['settings[max_attempts_per_email]'] = '2';
    }),
    says: 'Submissions per email address: needs “Ask for their email address” ticked',
    at: 'settings-max_attempts_per_email',
  },
  not_after: {
    form: newQuiz((form) => {
      form['settings[opens_at]'] = '2030-01-02T09:00';
      form['settings[closes_at]'] = '2030-01-01T09:00';
    }),
    says: 'Closes at: must be after “Opens at”',
    at: 'settings-closes_at',
  },
  needs_questions: {
    form: async () => {
      const quiz = await createQuiz(app.deps, ownerId, {
        title: 'Published',
        questions: [{ type: 'yes_no', text: 'Is ice cold?', points: 1, correct_answer: 'yes' }],
      });
      await publishQuiz(app.deps, ownerId, quiz.quiz_id);
      const path = `/dashboard/quizzes/${quiz.quiz_id}/edit`;
      const form = formOf((await agent.get(path)).text);
      const emptied = formOf((await post(path, form, 'remove:0')).text);
      return { form: { ...emptied, confirm_edit_published: 'on' }, path };
    },
    says: 'Questions: a published quiz keeps at least one question: add one',
    at: 'questions',
  },
};

/** Codes no save of the editor can meet, and why. */
const NOT_MET: Partial<Record<FieldIssueCode, string>> = {
  passed: 'a reopening with a past closing time: the editor never sends accepting_responses',
  unknown_field: 'the editor sends only the fields of its draft',
  not_for_type: "the editor sends only the fields of the question's type",
  invalid: "the tools' misfits (options as strings); every issue a save meets carries its own code",
  not_the_attempt_email: "a respondent's, on the public form",
  not_with: 'the editor sends points per item in place of the points, never both',
};

/** An API name as the tools spell it: snake_case, or a path such as `questions[1]`. */
const API_NAME = /\b[a-z]+_[a-z_]+\b|\w\[\d+\]/;

test('every code is met by a form of the editor, or listed as one it cannot meet', () => {
  const listed = [...Object.keys(MET), ...Object.keys(NOT_MET)].sort();
  expect(listed).toEqual([...FIELD_ISSUE_CODES].sort());
});

test.each(Object.entries(MET))(
  '%s: the summary and the field say it in the editor’s words and link to the field',
  async (_code, { form, says, at }) => {
    const sent = await form();
    const res = await post(sent.path ?? '/dashboard/quizzes/new', sent.form);
    expect(res.status).toBeGreaterThanOrEqual(400);
    const summary = errorSummaryText(res.text);
    expect(summary).toContain(says);
    expect(summary).not.toMatch(API_NAME);
    const page = squash(res.text);
    expect(page).toContain(`<a href="#${at}">`);
    // The same words beside the field (its place is given by the summary only).
    const beside = new RegExp(`<p class="field-error" id="${at}-error">(.*?)</p>`).exec(page)?.[1] ?? '';
    expect(beside).toContain(says.slice(says.indexOf(': ') + 2));
    expect(csrfFrom(res.text)).toBeTruthy();
  },
);

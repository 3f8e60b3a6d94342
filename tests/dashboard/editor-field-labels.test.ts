// Every field a question type takes has its label in the editor, so a refusal names it as the
// teacher sees it ("Question 2, Fewest words: use 1 or more"), never by its API name
// (`min_words`). The labels come from each type's editor face; a refusal of each field is sent
// through the editor's own form, as a teacher would.
import { LIMITS } from '../../src/domain/limits';
import {
  QUESTION_TYPE_DEFINITIONS,
  type QuestionType,
  type TypedField,
} from '../../src/domain/question-types';
import { EDITOR_FACES } from '../../src/dashboard/question-editor-faces';
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';
import { errorSummaryText, logIn, newAgent, type Agent } from './dashboard-helpers';
import { formOf, type Form } from './editor-form';

let app: TestApp;
let agent: Agent;

beforeAll(async () => {
  app = await startTestApp();
  const owner = await createTestUser(app, 'editor-labels');
  agent = newAgent(app);
  expect((await logIn(agent, owner.email, owner.password)).status).toBe(303);
});
afterAll(() => app.close());

const post = (form: Form, action = 'save') =>
  agent
    .post('/dashboard/quizzes/new')
    .type('form')
    .send({ ...form, _action: action });

const label = (type: QuestionType, field: TypedField) =>
  (EDITOR_FACES[type].labels as Partial<Record<TypedField, string>>)[field];

test('every field of every type has a label of its own, never its API name', () => {
  for (const definition of QUESTION_TYPE_DEFINITIONS) {
    for (const field of definition.takes) {
      const words = label(definition.name, field);
      expect({ type: definition.name, field, words: typeof words }).toEqual({
        type: definition.name,
        field,
        words: 'string',
      });
      expect(words).not.toBe(field);
      expect(words).not.toMatch(/_/);
    }
  }
});

/** A valid question 2 of the type, then the field made wrong, as a teacher could type it. */
const lines = (count: number, line: (index: number) => string) =>
  Array.from({ length: count }, (_, index) => line(index)).join('\n');
const VALID: Partial<Record<QuestionType, Form>> = {
  short_text: { accepted_answers: 'Lima' },
  number: { correct_number: '3' },
  ordering: { items: 'Egg\nLarva\nPupa' },
  fill_in_blanks: { blanks: 'Peru' },
  matching: { pairs: 'Paris = France\nRome = Italy' },
  scale: { scale_max: '5' },
  grid: { items: 'Paris\nRome', columns: 'France\nItaly' },
  calculated: { text: 'What is {a} + 1?', formula: 'a + 1', variables: 'a 1 9' },
};
const WRONG: Partial<Record<TypedField, Form>> = {
  points: { points: 'many' },
  // One option left: its second is not sent.
  options: { '[options][0][label]': 'Only one', '[options][1][label]': '' },
  accepted_answers: { accepted_answers: lines(LIMITS.acceptedAnswersMax + 1, (i) => `answer ${i}`) },
  correct_number: { correct_number: 'three' },
  tolerance: { tolerance: '-1' },
  // One more than ordering and the grid take (a grid of one row is allowed).
  items: { items: lines(LIMITS.orderingItemsMax + 1, (i) => `item ${i}`) },
  columns: { columns: 'France' },
  right_columns: { right_columns: 'first\nsecond' },
  points_per_item: { points_per_item: 'some' },
  scale_min: { scale_min: '4' },
  scale_max: { scale_max: '11' },
  scale_labels: { min_label: 'L'.repeat(LIMITS.scaleLabelMax + 1) },
  blanks: { blanks: 'Peru\nPacific' },
  rubric: { rubric: 'Thesis' },
  min_words: { min_words: '0' },
  max_words: { max_words: '0' },
  pairs: { pairs: 'Paris = France' },
  extra_matches: { extra_matches: lines(LIMITS.extraMatchesMax + 1, (i) => `extra ${i}`) },
  points_per_pair: { points_per_pair: 'some' },
  formula: { formula: 'a.constructor' },
  variables: { variables: 'a 9 1' },
};
// A yes/no question's right answer is a pair of radio buttons, a grid's checkboxes a checkbox:
// the form cannot send a wrong one.
// A calculated question's tolerance_type is a drop-down of its two kinds.
const UNREACHABLE: TypedField[] = ['correct_answer', 'checkboxes', 'tolerance_type'];

const cases = QUESTION_TYPE_DEFINITIONS.flatMap((definition) =>
  definition.takes
    .filter((field) => !UNREACHABLE.includes(field))
    .map((field) => [definition.name, field] as const),
);

test.each(cases)('a refused %s field %s is named by its label', async (type, field) => {
  let form = formOf((await agent.get('/dashboard/quizzes/new')).text);
  form.title = 'Labels';
  form['questions[0][text]'] = 'Is water wet?';
  form = formOf((await post(form, `add:${type}`)).text);
  form['questions[1][text]'] = 'Lima is the capital of [[1]].';
  for (const [name, value] of Object.entries({ ...VALID[type], ...WRONG[field] })) {
    const key = name.startsWith('[') ? `questions[1]${name}` : `questions[1][${name}]`;
    // The second option not sent at all, its picture's hidden fields with it.
    if (value === '' && name.startsWith('[options][1]')) {
      for (const sent of Object.keys(form))
        if (sent.startsWith('questions[1][options][1]')) delete form[sent];
    } else form[key] = value;
  }
  const page = await post(form);
  expect(page.status).toBe(422);
  const summary = errorSummaryText(page.text);
  expect(summary).toContain(`Question 2, ${label(type, field)}:`);
  expect(summary).not.toContain(`, ${field}:`);
});

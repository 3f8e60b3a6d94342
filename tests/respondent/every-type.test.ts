// Every question type in one quiz, through the real doors, on both databases: created over MCP,
// published, taken through an attempt by JSON and by the public form, scored with each answer's
// points worked out by hand below (each type's edges), re-marked after a key fix, exported to CSV
// through the signed link, and reviewed (the submission's review and the result page).
//
// One entry of TYPES per question: a new type adds its entry (see "A new type adds an entry"),
// and every step below takes it without another line.
import request from 'supertest';
import { QUESTION_TYPES } from '../../src/domain/question-types/names';
import { parseCsv } from '../dashboard/parse-csv';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';
import { createTestUser, describeEachDatabase, startTestApp, type TestApp } from '../helpers/test-app';

/** A question as the JSON attempt shows it: its parts under the attempt's ids, never the key. */
interface Asked {
  question_id: string;
  text: string;
  type: string;
  options?: Array<{ option_index: number; label: string }>;
  items?: Array<{ item_id: string; label: string }>;
  [list: string]: unknown;
}

/** One answer to send: its JSON field(s), or nothing for a question left unanswered. */
type JsonAnswer = Record<string, unknown> | null;

/** The form controls of one question on the page of a started attempt. */
interface FormQuestion {
  name: string;
  /** The page's HTML, to read options of its own (ordering's "<id>:<position>" values). */
  page: string;
}

interface AnswerCase {
  /** What the case is, in the test's words. */
  edge: string;
  json: (asked: Asked) => JsonAnswer;
  /** Its points under the key as created, worked out by hand. */
  points: number;
  /** Its points once the key is fixed (the same when the entry has no fix). */
  fixed?: number;
  /** How results, CSV and the review write it; null when unanswered. */
  text: string | null;
  /** A type with a CSV column per part (csvParts): each part's cell, "" for none. */
  csv?: string[];
}

interface TypeCase {
  type: string;
  question: Record<string, unknown>;
  max: number;
  /** The answers of rounds 1, 2, 3, one response each (every entry has three). */
  answers: [AnswerCase, AnswerCase, AnswerCase];
  /** What the review lists as right, as created. */
  right: string[];
  /** A refused answer with what the refusal says; nothing is stored. */
  refused?: { edge: string; json: (asked: Asked) => JsonAnswer; says: string };
  /** The key as fixed: fields that replace the question's, for update_quiz. */
  fix?: Record<string, unknown>;
  /** The form's right answer: the field values to send. */
  form: (control: FormQuestion) => Array<[string, string]>;
  /** The parts its CSV columns are named by (a grid's rows), each "Qn. text [part]"; none: one column. */
  csvParts?: string[];
}

const PLANETS = ['Mercury', 'Venus', 'Earth', 'Mars'];
const METHOD = ['Ask a question', 'Form a hypothesis', 'Run an experiment'];

/** An ordering's answer: the attempt's item ids of the labels, in the order given. */
const order = (labels: string[]) => (asked: Asked) => ({
  order: labels.map((label) => asked.items!.find((item) => item.label === label)!.item_id),
});

/** An ordering's form values: each item's select set to its place in `labels`. */
const orderForm = (labels: string[]) => (control: FormQuestion) => {
  const selects = [
    ...control.page.matchAll(
      /<span dir="auto">([^<]+)<\/span><\/label\s*>\s*<select[^>]*name="([^"]+)"[^>]*>([\s\S]*?)<\/select>/g,
    ),
  ].filter((match) => match[2] === control.name);
  expect(selects).toHaveLength(labels.length);
  return selects.map((match): [string, string] => {
    const values = [...match[3]!.matchAll(/value="([^"]+)"/g)].map((value) => value[1]!);
    return [control.name, values[labels.indexOf(match[1]!)]!];
  });
};

/** A choice-list blank's answer: the attempt's option id of the label. */
const blankOption = (asked: Asked, blank: number, label: string) =>
  (asked[`blank_${blank}_options`] as Array<{ option_id: string; label: string }>).find(
    (option) => option.label === label,
  )!.option_id;

/** A matching question's part as the JSON attempt lists it: a prompt_id or a match_id, and a label. */
type Part = { label: string } & Record<string, string>;

/** A matching answer by labels (null: the prompt left empty), as the attempt's ids. */
const matches = (chosen: Record<string, string | null>) => (asked: Asked) => {
  const [prompts, offered] = [asked.prompts as Part[], asked.matches as Part[]];
  return {
    matches: Object.fromEntries(
      Object.entries(chosen).map(([prompt, match]) => [
        prompts.find((part) => part.label === prompt)!.prompt_id,
        match === null ? null : offered.find((part) => part.label === match)!.match_id,
      ]),
    ),
  };
};

/** A matching question's form values: each prompt's select set to the option of its match. */
const matchForm = (chosen: Record<string, string>) => (control: FormQuestion) => {
  const selects = [
    ...control.page.matchAll(
      /<label class="match-label"[^>]*><span dir="auto">([^<]+)<\/span><\/label\s*>\s*<select[^>]*name="([^"]+)"[^>]*>([\s\S]*?)<\/select>/g,
    ),
  ].filter((match) => match[2] === control.name);
  expect(selects).toHaveLength(Object.keys(chosen).length);
  return selects.map((match): [string, string] => {
    const options = [...match[3]!.matchAll(/<option\s+value="([^"]+)"\s*>\s*([^<]*?)\s*<\/option>/g)];
    const option = options.find((found) => found[2] === chosen[match[1]!])!;
    return [control.name, option[1]!];
  });
};

const TYPES: TypeCase[] = [
  {
    type: 'yes_no',
    question: { type: 'yes_no', text: 'Is Milan the capital of Italy?', points: 2, correct_answer: 'no' },
    max: 2,
    answers: [
      { edge: 'right', json: () => ({ answer: 'no' }), points: 2, text: 'no' },
      { edge: 'wrong', json: () => ({ answer: 'yes' }), points: 0, text: 'yes' },
      { edge: 'unanswered', json: () => null, points: 0, text: null },
    ],
    right: ['no'],
    form: ({ name }) => [[name, 'no']],
  },
  {
    type: 'multiple_choice',
    question: {
      type: 'multiple_choice',
      text: 'Which planet is closest to the Sun?',
      options: [
        { label: 'Mercury', score: 3 },
        { label: 'Venus', score: 1 },
        { label: 'Mars', score: 0 },
      ],
    },
    max: 3,
    answers: [
      { edge: 'best option', json: () => ({ option_index: 0 }), points: 3, text: 'Mercury' },
      { edge: 'an option worth part', json: () => ({ option_index: 1 }), points: 1, text: 'Venus' },
      { edge: 'an option worth nothing', json: () => ({ option_index: 2 }), points: 0, text: 'Mars' },
    ],
    right: ['Mercury'],
    form: ({ name }) => [[name, '0']],
  },
  {
    type: 'multiple_select',
    question: {
      type: 'multiple_select',
      text: 'Which of these are prime numbers?',
      options: [
        { label: '2', score: 1 },
        { label: '3', score: 1 },
        { label: '4', score: -1 },
        { label: '9', score: -1 },
      ],
    },
    max: 2,
    answers: [
      { edge: 'both right ticked', json: () => ({ choices: [0, 1] }), points: 2, text: '2; 3' },
      // 1 - 1 = 0: a wrong tick takes back a right one.
      { edge: 'one right, one wrong', json: () => ({ choices: [0, 2] }), points: 0, text: '2; 4' },
      // 1 - 1 - 1 = -1, held at 0: never below nothing.
      { edge: 'more wrong than right', json: () => ({ choices: [1, 2, 3] }), points: 0, text: '3; 4; 9' },
    ],
    right: ['2', '3'],
    form: ({ name }) => [
      [name, ''],
      [name, '0'],
      [name, '1'],
    ],
  },
  {
    type: 'short_text',
    question: { type: 'short_text', text: 'Capital of Peru?', points: 2, accepted_answers: ['Lima'] },
    max: 2,
    answers: [
      // Case and spacing are ignored.
      { edge: 'case and spaces', json: () => ({ text: '  LIMA ' }), points: 2, text: 'LIMA' },
      {
        edge: 'an old name, accepted once fixed',
        json: () => ({ text: 'Ciudad de los Reyes' }),
        points: 0,
        fixed: 2,
        text: 'Ciudad de los Reyes',
      },
      { edge: 'wrong', json: () => ({ text: 'Cusco' }), points: 0, text: 'Cusco' },
    ],
    right: ['Lima'],
    fix: { accepted_answers: ['Lima', 'Ciudad de los Reyes'] },
    form: ({ name }) => [[name, 'lima']],
  },
  {
    type: 'number',
    question: {
      type: 'number',
      text: 'The value of pi to two decimals?',
      points: 1,
      correct_number: 3.14,
      tolerance: 0.005,
    },
    max: 1,
    answers: [
      { edge: 'within the tolerance', json: () => ({ number: 3.144 }), points: 1, text: '3.144' },
      { edge: 'a decimal comma', json: () => ({ number: '3,14' }), points: 1, text: '3,14' },
      { edge: 'outside the tolerance', json: () => ({ number: 3.2 }), points: 0, text: '3.2' },
    ],
    right: ['3.14 ± 0.005'],
    refused: { edge: 'not a number', json: () => ({ number: 'three' }), says: 'number' },
    form: ({ name }) => [[name, '3.14']],
  },
  {
    // Each attempt draws its own numbers; here each range is one value, so every round is alike
    // (tests/respondent/calculated-question.test.ts draws from wider ones). w has a unit, h a step.
    type: 'calculated',
    question: {
      type: 'calculated',
      text: 'A rectangle is {w} by {h} m. Its area in m²?',
      points: 2,
      formula: 'w * h',
      variables: [
        { name: 'w', min: 3, max: 3, unit: 'm' },
        { name: 'h', min: 2.5, max: 2.5, step: 0.5 },
      ],
      tolerance: 0.01,
      tolerance_type: 'relative',
    },
    max: 2,
    answers: [
      { edge: 'right', json: () => ({ number: 7.5 }), points: 2, text: '7.5' },
      { edge: 'within 1%, with a comma', json: () => ({ number: '7,45' }), points: 2, text: '7,45' },
      // Right once the tolerance is widened to 10%.
      { edge: 'outside 1%', json: () => ({ number: 8 }), points: 0, fixed: 2, text: '8' },
    ],
    right: ['7.5 ± 1%'],
    refused: { edge: 'not a number', json: () => ({ number: 'seven' }), says: 'number' },
    fix: { tolerance: 0.1 },
    form: ({ name }) => [[name, '7.5']],
  },
  {
    // Points on the whole order; the owner's key had the first two steps the wrong way round.
    type: 'ordering',
    question: {
      type: 'ordering',
      text: 'Steps of the scientific method',
      points: 3,
      items: [METHOD[1], METHOD[0], METHOD[2]].map((label) => ({ label })),
    },
    max: 3,
    answers: [
      // All right by the key as created; after the fix it is the one swap.
      {
        edge: 'all right (as keyed)',
        json: order([METHOD[1]!, METHOD[0]!, METHOD[2]!]),
        points: 3,
        fixed: 0,
        text: `${METHOD[1]}, ${METHOD[0]}, ${METHOD[2]}`,
      },
      // One swap: nothing on the whole order; right once the key is fixed.
      {
        edge: 'one swap (right once fixed)',
        json: order(METHOD),
        points: 0,
        fixed: 3,
        text: METHOD.join(', '),
      },
      {
        edge: 'reversed',
        json: order([...METHOD].reverse()),
        points: 0,
        text: [...METHOD].reverse().join(', '),
      },
    ],
    right: [`${METHOD[1]}, ${METHOD[0]}, ${METHOD[2]}`],
    fix: { items: METHOD.map((label) => ({ label })) },
    form: orderForm([METHOD[1]!, METHOD[0]!, METHOD[2]!]),
  },
  {
    // A point per item in its place.
    type: 'ordering',
    question: {
      type: 'ordering',
      text: 'The planets from the Sun, nearest first',
      points_per_item: 1,
      items: PLANETS.map((label) => ({ label })),
    },
    max: 4,
    answers: [
      { edge: 'all right', json: order(PLANETS), points: 4, text: PLANETS.join(', ') },
      // Mercury and Venus swapped: Earth and Mars still in place.
      {
        edge: 'one swap',
        json: order(['Venus', 'Mercury', 'Earth', 'Mars']),
        points: 2,
        text: 'Venus, Mercury, Earth, Mars',
      },
      // Reversed, four items: none in its place.
      {
        edge: 'reversed',
        json: order([...PLANETS].reverse()),
        points: 0,
        text: [...PLANETS].reverse().join(', '),
      },
    ],
    right: [PLANETS.join(', ')],
    refused: {
      edge: 'an item twice',
      json: (asked) => ({
        order: [
          asked.items![0]!.item_id,
          asked.items![0]!.item_id,
          asked.items![1]!.item_id,
          asked.items![2]!.item_id,
        ],
      }),
      says: 'exactly once',
    },
    form: orderForm(PLANETS),
  },
  {
    // A point per pair; the owner's key had Madrid's match and the distractor the wrong way round.
    type: 'matching',
    question: {
      type: 'matching',
      text: 'Match each capital with its country',
      pairs: [
        { prompt: 'Paris', match: 'France' },
        { prompt: 'Rome', match: 'Italy' },
        { prompt: 'Madrid', match: 'Portugal' },
      ],
      extra_matches: [{ label: 'Spain' }],
    },
    max: 3,
    answers: [
      // Spain, the distractor as keyed, chosen for Madrid: 2; right once the key is fixed.
      {
        edge: 'a distractor chosen (right once fixed)',
        json: matches({ Paris: 'France', Rome: 'Italy', Madrid: 'Spain' }),
        points: 2,
        fixed: 3,
        text: 'Paris → France; Rome → Italy; Madrid → Spain',
      },
      // Rome left empty: Paris and Madrid as keyed (2); after the fix Portugal is the distractor (1).
      {
        edge: 'a prompt left empty',
        json: matches({ Paris: 'France', Rome: null, Madrid: 'Portugal' }),
        points: 2,
        fixed: 1,
        text: 'Paris → France; Rome → —; Madrid → Portugal',
      },
      // Paris and Rome swapped: only Madrid as keyed (1), nothing once fixed.
      {
        edge: 'two swapped',
        json: matches({ Paris: 'Italy', Rome: 'France', Madrid: 'Portugal' }),
        points: 1,
        fixed: 0,
        text: 'Paris → Italy; Rome → France; Madrid → Portugal',
      },
    ],
    right: ['Paris → France; Rome → Italy; Madrid → Portugal'],
    refused: {
      edge: 'a match_id of no list',
      json: (asked) => ({ matches: { [(asked.prompts as Part[])[0]!.prompt_id!]: 'nope' } }),
      says: 'takes a match_id of this attempt',
    },
    fix: {
      pairs: [
        { prompt: 'Paris', match: 'France' },
        { prompt: 'Rome', match: 'Italy' },
        { prompt: 'Madrid', match: 'Spain' },
      ],
      extra_matches: [{ label: 'Portugal' }],
    },
    form: matchForm({ Paris: 'France', Rome: 'Italy', Madrid: 'Portugal' }),
  },
  {
    // A typed blank worth 2, a typed blank whose accent counts, and a choice-list blank.
    type: 'fill_in_blanks',
    question: {
      type: 'fill_in_blanks',
      text: 'Lima is the capital of [[2]] (in Spanish); its capital is [[1]]; the Eiffel Tower was finished in [[3]].',
      blanks: [
        { accepted_answers: ['Lima'], points: 2 },
        { accepted_answers: ['Perú'] },
        { options: ['1789', '1889', '1901'], correct_option: 1 },
      ],
    },
    max: 4,
    answers: [
      // Case and spacing are ignored: 2 + 1 + 1.
      {
        edge: 'case and spaces',
        json: (asked) => ({ blanks: ['  LIMA ', 'PERÚ', blankOption(asked, 3, '1889')] }),
        points: 4,
        text: '1: LIMA; 2: PERÚ; 3: 1889',
      },
      // "Peru" without its accent is wrong until the key accepts it; 1789 is wrong: 2, then 3.
      {
        edge: 'an accent that counts (accepted once fixed)',
        json: (asked) => ({ blanks: ['Lima', 'Peru', blankOption(asked, 3, '1789')] }),
        points: 2,
        fixed: 3,
        text: '1: Lima; 2: Peru; 3: 1789',
      },
      // Only the choice-list blank filled, right: 1.
      {
        edge: 'a choice-list blank alone',
        json: (asked) => ({ blanks: [null, null, blankOption(asked, 3, '1889')] }),
        points: 1,
        text: '3: 1889',
      },
    ],
    right: ['1: Lima; 2: Perú; 3: 1889'],
    refused: {
      edge: 'a blank short',
      json: () => ({ blanks: ['Lima', 'Perú'] }),
      says: 'a list of 3 entries',
    },
    fix: {
      blanks: [
        { accepted_answers: ['Lima'], points: 2 },
        { accepted_answers: ['Perú', 'Peru'] },
        { options: ['1789', '1889', '1901'], correct_option: 1 },
      ],
    },
    form: ({ name, page }) => {
      const select = new RegExp(`<select[^>]*name="${name}_b3"[^>]*>([\\s\\S]*?)</select>`).exec(page)![1]!;
      const id = /<option value="([^"]+)"\s*>\s*1889/.exec(select)![1]!;
      return [
        [`${name}_b1`, 'lima'],
        [`${name}_b2`, 'Perú'],
        [`${name}_b3`, id],
      ];
    },
  },
  // A new type adds an entry here, with its three answers, its right answers, a refusal where it
  // has one, and its form values.
  {
    type: 'scale',
    question: {
      type: 'scale',
      text: 'How likely are you to recommend this course?',
      scale_min: 0,
      scale_max: 10,
      scale_labels: ['Not at all likely', 'Extremely likely'],
    },
    // An opinion: worth nothing, whatever is picked.
    max: 0,
    answers: [
      { edge: 'the top', json: () => ({ value: 10 }), points: 0, text: '10' },
      { edge: 'a detractor', json: () => ({ value: 6 }), points: 0, text: '6' },
      { edge: 'the bottom', json: () => ({ value: 0 }), points: 0, text: '0' },
    ],
    right: [],
    refused: { edge: 'out of range', json: () => ({ value: 11 }), says: 'a whole number from 0 to 10' },
    form: ({ name }) => [[name, '9']],
  },
  {
    // Lima keyed to the wrong column, fixed later: each row right earns its point.
    type: 'grid',
    question: {
      type: 'grid',
      text: 'Which country is each city the capital of?',
      items: [{ label: 'Paris' }, { label: 'Rome' }, { label: 'Lima' }],
      columns: ['France', 'Italy', 'Peru', 'Spain'],
      right_columns: [[0], [1], [3]],
    },
    max: 3,
    answers: [
      {
        edge: 'every row right once fixed',
        json: () => ({ rows: [0, 1, 2] }),
        points: 2,
        fixed: 3,
        text: 'Paris: France; Rome: Italy; Lima: Peru',
        csv: ['France', 'Italy', 'Peru'],
      },
      {
        edge: 'a row left empty, Lima as keyed',
        json: () => ({ rows: [0, null, [3]] }),
        points: 2,
        fixed: 1,
        text: 'Paris: France; Rome: —; Lima: Spain',
        csv: ['France', '', 'Spain'],
      },
      { edge: 'left blank', json: () => null, points: 0, text: null, csv: ['', '', ''] },
    ],
    right: ['Paris: France; Rome: Italy; Lima: Spain'],
    refused: {
      edge: 'a column not there',
      json: () => ({ rows: [0, 1, 4] }),
      says: 'each a column index from 0 to 3',
    },
    fix: { right_columns: [[0], [1], [2]] },
    form: ({ name }) => [
      [`${name}_r0`, '0'],
      [`${name}_r1`, '1'],
      [`${name}_r2`, '3'],
    ],
    csvParts: ['Paris', 'Rome', 'Lima'],
  },
  {
    // An essay worth nothing waits for no grade, so every round here is final; a graded essay,
    // pending until its grade, has its own test (tests/mcp/essay-question.test.ts).
    type: 'essay',
    question: { type: 'essay', text: 'Anything else to tell us?', points: 0, min_words: 2, max_words: 50 },
    max: 0,
    answers: [
      { edge: 'a sentence', json: () => ({ text: 'It was fun.' }), points: 0, text: 'It was fun.' },
      {
        edge: 'spaces trimmed',
        json: () => ({ text: '  More maths please  ' }),
        points: 0,
        text: 'More maths please',
      },
      { edge: 'left blank', json: () => null, points: 0, text: null },
    ],
    right: [],
    refused: { edge: 'too few words', json: () => ({ text: 'Fine' }), says: 'Write at least 2 words' },
    form: ({ name }) => [[name, 'Thank you all']],
  },
];

const MAX = TYPES.reduce((sum, entry) => sum + entry.max, 0);
const roundPoints = (round: number, key: 'points' | 'fixed') =>
  TYPES.map((entry) => {
    const answer = entry.answers[round]!;
    return key === 'fixed' ? (answer.fixed ?? answer.points) : answer.points;
  });
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

describeEachDatabase('a quiz with every question type', (provider) => {
  let app: TestApp;
  let client: AnyClient;

  beforeAll(async () => {
    app = await startTestApp({ provider });
    client = await connectClient(app, (await createTestUser(app, `every-type-${provider}`)).apiKey);
  });
  afterAll(async () => {
    await client?.close();
    await app?.close();
  });

  const call = async (name: string, args: Record<string, unknown>) =>
    payload(await callTool(client, name, args));

  test('the table holds every type the service has', () => {
    // Each type the service has holds at least one entry.
    expect(new Set(TYPES.map((entry) => entry.type))).toEqual(new Set(QUESTION_TYPES));
  });

  test('created, published, taken by JSON and form, scored by hand, re-marked, exported and reviewed', async () => {
    expect(MAX).toBe(29);
    const created = await call('create_quiz', {
      title: 'Every type',
      questions: TYPES.map((entry) => entry.question),
      settings: { collect_name: false, require_all_answers: false, show_correct_answers: 'after_submit' },
    });
    expect(created.max_score).toBe(MAX);
    const ids: string[] = created.questions.map((question: { question_id: string }) => question.question_id);
    const published = await call('publish_quiz', { quiz_id: created.quiz_id });
    const slug: string = published.slug ?? created.slug;

    const start = async () => {
      const started = await request(app.app).post(`/api/quizzes/${slug}/attempts`).send({});
      expect(started.status).toBe(201);
      const byId = new Map<string, Asked>(
        (started.body.questions as Asked[]).map((question) => [question.question_id, question]),
      );
      return { token: started.body.attempt_token as string, asked: ids.map((id) => byId.get(id)!) };
    };
    const answersOf = (asked: Asked[], pick: (entry: TypeCase, index: number) => JsonAnswer) =>
      TYPES.flatMap((entry, index) => {
        const answer = pick(entry, index);
        return answer ? [{ question_id: asked[index]!.question_id, ...answer }] : [];
      });

    // Refusals first: each names what to fix, and nothing is stored.
    for (const [index, entry] of TYPES.entries()) {
      if (!entry.refused) continue;
      const { token, asked } = await start();
      const refused = await request(app.app)
        .post(`/api/quizzes/${slug}/responses`)
        .send({
          attempt_token: token,
          answers: answersOf(asked, (other, at) =>
            at === index ? entry.refused!.json(asked[at]!) : other.answers[0].json(asked[at]!),
          ),
        });
      expect({ type: entry.type, edge: entry.refused.edge, status: refused.status }).toEqual({
        type: entry.type,
        edge: entry.refused.edge,
        status: 422,
      });
      expect(JSON.stringify(refused.body.errors)).toContain(entry.refused.says);
    }
    expect((await call('get_results', { quiz_id: created.quiz_id })).summary.response_count).toBe(0);

    // Three rounds by JSON: each response's answers, points and review, type by type.
    const responseIds: string[] = [];
    for (const round of [0, 1, 2]) {
      const { token, asked } = await start();
      const sent = await request(app.app)
        .post(`/api/quizzes/${slug}/responses`)
        .send({
          attempt_token: token,
          answers: answersOf(asked, (entry, at) => entry.answers[round]!.json(asked[at]!)),
        });
      expect(sent.status).toBe(201);
      expect(sent.body).toMatchObject({ score: sum(roundPoints(round, 'points')), max_score: MAX });
      responseIds.push(sent.body.response_id);
      const review = sent.body.review as Array<Record<string, unknown>>;
      expect(
        review.map((item) => [item.your_answer, item.points, item.max_points, item.correct_answers]),
      ).toEqual(
        TYPES.map((entry) => [
          entry.answers[round]!.text,
          entry.answers[round]!.points,
          entry.max,
          entry.right,
        ]),
      );
    }

    // The form: the right answers through a started attempt's page, then its result page's review.
    const begun = await request(app.app).post(`/q/${slug}/start`).type('form').send({});
    expect(begun.status).toBe(303);
    const location = String(begun.headers.location);
    const token = decodeURIComponent(location.split('attempt=')[1] ?? '');
    const page = (await request(app.app).get(location)).text;
    const form = new URLSearchParams({ attempt_token: token });
    TYPES.forEach((entry, index) => {
      for (const [name, value] of entry.form({ name: `q_${ids[index]}`, page })) form.append(name, value);
    });
    const sent = await request(app.app).post(`/q/${slug}`).type('form').send(form.toString());
    expect(sent.status).toBe(303);
    const resultPage = (await request(app.app).get(String(sent.headers.location))).text;
    expect(resultPage).toMatch(
      new RegExp(`score-value">${MAX}</span>\\s*<span class="score-max">out of ${MAX}<`),
    );
    for (const entry of TYPES) {
      for (const right of entry.right) expect(resultPage).toContain(right);
    }

    // get_results: each answer's string, points and maximum, per type; the form's response is the latest.
    const results = await call('get_results', { quiz_id: created.quiz_id, limit: 10 });
    expect(results.summary).toMatchObject({ response_count: 4, max_score: MAX });
    const byId = new Map<string, any>(
      results.responses.map((response: any) => [response.response_id, response]),
    );
    for (const [round, id] of responseIds.entries()) {
      const response = byId.get(id);
      expect(response.score).toBe(sum(roundPoints(round, 'points')));
      expect(
        response.answers.map((answer: any) => [answer.answer, answer.points, answer.max_points]),
      ).toEqual(TYPES.map((entry) => [entry.answers[round]!.text, entry.answers[round]!.points, entry.max]));
    }
    const viaForm = results.responses.find((response: any) => !responseIds.includes(response.response_id));
    expect(viaForm.score).toBe(MAX);
    // A scale stays out of the score and the item analysis; its figures are its own.
    const scale = results.questions.find((question: any) => question.type === 'scale');
    expect(scale).toMatchObject({ mean: 6.25, median: 7.5 });
    expect(scale.net_promoter).toMatchObject({ promoters: 2, passives: 0, detractors: 2, score: 0 });

    // The key fixed: past answers re-marked, each type by its own rule.
    const fixed = await call('update_quiz', {
      quiz_id: created.quiz_id,
      confirm_edit_published: true,
      remark_past_responses: true,
      questions: TYPES.map((entry, index) => ({ ...entry.question, ...entry.fix, question_id: ids[index] })),
    });
    // Every response changes: rounds 1 and 2 and the form's, and round 3 by its matching answer
    // (Madrid given Portugal, right as keyed, is wrong once fixed).
    expect(fixed.remarked_responses).toBe(4);
    const after = await call('get_results', { quiz_id: created.quiz_id, limit: 10 });
    const afterById = new Map<string, any>(
      after.responses.map((response: any) => [response.response_id, response]),
    );
    for (const [round, id] of responseIds.entries()) {
      const response = afterById.get(id);
      expect({ round, points: response.answers.map((answer: any) => answer.points) }).toEqual({
        round,
        points: roundPoints(round, 'fixed'),
      });
      expect(response.score).toBe(sum(roundPoints(round, 'fixed')));
    }

    // The CSV, through the signed link: one column per question, holding the answer string.
    const links = await call('get_quiz_links', { quiz_id: created.quiz_id });
    const csvUrl = new URL(links.csv.url);
    const csv = await request(app.app).get(`${csvUrl.pathname}${csvUrl.search}`);
    expect(csv.status).toBe(200);
    const rows = parseCsv(csv.text.replace(/^\ufeff/, ''));
    const header = rows[0]!;
    const columnsOf = (entry: TypeCase, index: number) => {
      const label = `Q${index + 1}. ${String(entry.question.text)}`;
      return entry.csvParts
        ? entry.csvParts.map((part) => header.indexOf(`${label} [${part}]`))
        : [header.indexOf(label)];
    };
    const columns = TYPES.map((entry, index) => columnsOf(entry, index)[0]!);
    expect(TYPES.flatMap(columnsOf).every((column) => column > 0)).toBe(true);
    expect(rows.slice(1).filter((cells) => cells.length > 1)).toHaveLength(4);
    // Rows carry no response id: each round is found by its planets' order, which differs.
    const planets = TYPES.findIndex(
      (entry) => entry.question.text === 'The planets from the Sun, nearest first',
    );
    for (const round of [0, 1, 2]) {
      const row = rows.find((cells) => cells[columns[planets]!] === TYPES[planets]!.answers[round]!.text);
      expect({ round, found: Boolean(row) }).toEqual({ round, found: true });
      expect(row![header.indexOf('score')]).toBe(String(sum(roundPoints(round, 'fixed'))));
      expect(TYPES.map((entry, index) => columnsOf(entry, index).map((column) => row![column]))).toEqual(
        TYPES.map((entry) => entry.answers[round]!.csv ?? [entry.answers[round]!.text ?? '']),
      );
    }
  });
});

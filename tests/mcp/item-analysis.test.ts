// Item analysis in get_results, held to a reference computed here from the responses themselves
// (their per-question points and percents, read back page by page), the plain way: arrays, two
// passes, each response ranked on its own. Edge cases: one response, all scores equal, a
// question everyone answers alike (zero variance), an edited quiz. On SQLite and PostgreSQL.
import request from 'supertest';
import {
  createTestUser,
  describeEachDatabase,
  raisedLimits,
  startTestApp,
  type TestApp,
} from '../helpers/test-app';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';

const QUESTIONS = [
  { type: 'yes_no', text: 'Sky blue?', points: 2 },
  {
    type: 'multiple_choice',
    text: 'Best?',
    options: [
      { label: 'A', score: 0 },
      { label: 'B', score: 3 },
      { label: 'C', score: 1 },
      { label: 'D', score: 0 },
    ],
  },
  { type: 'yes_no', text: 'Fire cold?', points: 1, correct_answer: 'no' },
  {
    type: 'multiple_choice',
    text: 'Same for all',
    options: [
      { label: 'Only', score: 1 },
      { label: 'Never picked', score: 0 },
    ],
  },
];

type Pick = [string | null, number | null, string | null, number];
/** A fixed spread: the strong mostly right, a wrong option ("C") liked by the strong on Q2. */
const picks = (n: number): Pick[] =>
  Array.from({ length: n }, (_, i) => [
    i % 4 === 3 ? 'no' : i % 9 === 0 ? null : 'yes',
    i % 5 === 0 ? 2 : i % 3 === 0 ? 0 : i % 7 === 0 ? 3 : 1,
    i % 2 === 0 ? 'no' : 'yes',
    0,
  ]);

interface Reference {
  facility: Array<number | null>;
  discrimination: Array<number | null>;
  top: Array<number[] | null>;
  bottom: Array<number[] | null>;
  alpha: number | null;
  distribution: number[];
}

const round2 = (value: number | null) => (value === null ? null : Math.round(value * 100) / 100);
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const pvar = (values: number[]) => mean(values.map((v) => (v - mean(values)) ** 2));

/** The reference, from rows of (points per question, percent). */
function reference(
  rows: Array<{ points: number[]; percent: number; chosen: string[] }>,
  maxima: number[],
  keys: string[][],
): Reference {
  const n = rows.length;
  const totals = rows.map((row) => row.points.reduce((a, b) => a + b, 0));
  const columns = maxima.map((_, q) => rows.map((row) => row.points[q]!));
  const r = (a: number[], b: number[]) => {
    const cov = mean(a.map((v, i) => (v - mean(a)) * (b[i]! - mean(b))));
    const d = Math.sqrt(pvar(a) * pvar(b));
    return d < 1e-12 ? null : cov / d;
  };
  // Rank by percent, one-point resolution: equal floors tie, and a tie cut by the 27% line counts in proportion.
  const group = (order: 1 | -1) => {
    const size = 0.27 * n;
    if (size < 1) return null;
    const sorted = [...rows].sort((a, b) => order * (Math.floor(b.percent) - Math.floor(a.percent)));
    const weights = new Map<(typeof rows)[number], number>();
    let left = size;
    let i = 0;
    while (left > 0 && i < sorted.length) {
      const floor = Math.floor(sorted[i]!.percent);
      const tied = sorted.filter((row) => Math.floor(row.percent) === floor);
      const weight = Math.min(1, left / tied.length);
      for (const row of tied) weights.set(row, weight);
      left -= tied.length * weight;
      i += tied.length;
    }
    return keys.map((questionKeys, q) =>
      questionKeys.map(
        (key) =>
          [...weights.entries()].reduce(
            (sum, [row, weight]) => sum + (row.chosen[q] === key ? weight : 0),
            0,
          ) / size,
      ),
    );
  };
  const top = group(1);
  const bottom = group(-1);
  const sumVar = columns.reduce((sum, column) => sum + pvar(column), 0);
  const distribution = Array.from({ length: 10 }, () => 0);
  for (const row of rows) distribution[Math.min(9, Math.max(0, Math.floor(row.percent / 10)))]! += 1;
  return {
    facility: columns.map((column, q) => mean(column) / maxima[q]!),
    discrimination: columns.map((column) =>
      n < 2
        ? null
        : r(
            column,
            totals.map((t, i) => t - column[i]!),
          ),
    ),
    top: keys.map((_, q) => top?.[q] ?? null),
    bottom: keys.map((_, q) => bottom?.[q] ?? null),
    alpha:
      n < 2 || pvar(totals) < 1e-12
        ? null
        : (maxima.length / (maxima.length - 1)) * (1 - sumVar / pvar(totals)),
    distribution,
  };
}

describeEachDatabase('item analysis in get_results', (provider) => {
  let app: TestApp;
  let client: AnyClient;

  beforeAll(async () => {
    app = await startTestApp({ provider, config: raisedLimits() });
    client = await connectClient(app, (await createTestUser(app, 'items')).apiKey);
  });
  afterAll(async () => {
    await client.close();
    await app.close();
  });

  const call = async (tool: string, args: Record<string, unknown>) =>
    payload(await callTool(client, tool, args));

  async function quizWith(rows: Pick[], questions: unknown[] = QUESTIONS) {
    const quiz = await call('create_quiz', {
      title: `Items ${Math.random()}`,
      settings: { require_all_answers: false },
      questions,
    });
    await call('publish_quiz', { quiz_id: quiz.quiz_id });
    const ids = quiz.questions.map((q: { question_id: string }) => q.question_id);
    for (const row of rows) {
      const answers = row.flatMap((pick, q) =>
        pick === null || q >= ids.length
          ? []
          : [
              typeof pick === 'number'
                ? { question_id: ids[q], option_index: pick }
                : { question_id: ids[q], answer: pick },
            ],
      );
      await request(app.app)
        .post(`/api/quizzes/${quiz.slug}/responses`)
        .send({ respondent: { name: 'R' }, answers })
        .expect(201);
    }
    return quiz;
  }

  /** Every response with its answers, through get_results' pages: what the reference is computed from. */
  async function allResponses(quizId: string) {
    const responses: Array<{
      percent: number;
      answers: Array<{ points: number; answer: string | null; option_index: number | null }>;
    }> = [];
    let cursor: string | undefined;
    do {
      const page = await call('get_results', { quiz_id: quizId, limit: 100, ...(cursor ? { cursor } : {}) });
      responses.push(...page.responses);
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    return responses;
  }

  const KEYS = [
    ['yes', 'no'],
    ['0', '1', '2', '3'],
    ['yes', 'no'],
    ['0', '1'],
  ];
  const MAXIMA = [2, 3, 1, 1];

  async function expectReference(quizId: string) {
    const responses = await allResponses(quizId);
    const rows = responses.map((response) => ({
      percent: response.percent,
      points: response.answers.map((answer) => answer.points),
      chosen: response.answers.map((answer) =>
        answer.option_index !== null ? String(answer.option_index) : (answer.answer ?? ''),
      ),
    }));
    const want = reference(rows, MAXIMA, KEYS);
    const results = await call('get_results', { quiz_id: quizId, limit: 0 });
    results.questions.forEach((question: Record<string, any>, q: number) => {
      expect(question.facility).toBe(round2(want.facility[q]!));
      expect(question.discrimination).toBe(round2(want.discrimination[q]!));
      expect(question.top_shares).toEqual(want.top[q]?.map(round2) ?? null);
      expect(question.bottom_shares).toEqual(want.bottom[q]?.map(round2) ?? null);
    });
    expect(results.item_analysis.reliability.value).toBe(round2(want.alpha));
    expect(results.item_analysis.score_distribution.map((b: { count: number }) => b.count)).toEqual(
      want.distribution,
    );
    return { results, want };
  }

  test('a fixed data set of 40: every figure equals the reference, and the flags say why', async () => {
    const quiz = await quizWith(picks(40));
    const { results, want } = await expectReference(quiz.quiz_id);
    expect(results.item_analysis.reliability).toMatchObject({ statistic: 'cronbach_alpha', reason: null });
    // Zero variance: everyone earned the same on the last question.
    expect(results.questions[3]).toMatchObject({ facility: 1, discrimination: null });
    // Flags, from the reference's figures and the documented thresholds.
    const expected = (q: number) => {
      const flags: string[] = [];
      const f = want.facility[q]!;
      const d = want.discrimination[q];
      if (f >= 0.9) flags.push('too_easy');
      if (f <= 0.2) flags.push('too_hard');
      if (d !== null && d !== undefined && d < 0) flags.push('negative_discrimination');
      else if (d !== null && d !== undefined && d < 0.2) flags.push('weak_discrimination');
      const right = q === 0 ? [0] : q === 1 ? [1] : q === 2 ? [1] : [0];
      const top = want.top[q]!;
      const weakest = Math.min(...right.map((i) => top[i]!));
      top.forEach((share, i) => {
        if (!right.includes(i) && share > weakest) flags.push('wrong_option_favoured');
      });
      return flags;
    };
    results.questions.forEach((question: { flags: Array<{ flag: string; reason: string }> }, q: number) => {
      expect(question.flags.map((flag) => flag.flag)).toEqual(expected(q));
      for (const flag of question.flags) expect(flag.reason).toMatch(/^[A-Z].*\.$/);
    });
    expect(
      results.questions.flatMap((q: { flags: Array<{ flag: string }> }) => q.flags.map((f) => f.flag)),
    ).toContain('too_easy');
  });

  test('one response: no discrimination, no groups, no reliability, with the reason', async () => {
    const quiz = await quizWith(picks(1));
    const { results } = await expectReference(quiz.quiz_id);
    expect(
      results.questions.every(
        (q: { discrimination: unknown; top_shares: unknown }) =>
          q.discrimination === null && q.top_shares === null,
      ),
    ).toBe(true);
    expect(results.item_analysis.reliability).toEqual({
      statistic: 'cronbach_alpha',
      value: null,
      reason: 'It needs at least 2 responses.',
    });
    expect(results.questions.every((q: { flags: unknown[] }) => q.flags.length === 0)).toBe(true);
  });

  test('all scores equal: no spread, so no discrimination and no reliability, with the reason', async () => {
    const same: Pick = ['yes', 1, 'no', 0];
    const quiz = await quizWith(Array.from({ length: 6 }, () => same));
    const { results } = await expectReference(quiz.quiz_id);
    expect(results.item_analysis.reliability.reason).toBe(
      'Every response has the same score: there is no spread to explain.',
    );
    // Everyone in one percent bucket: both groups are the same people.
    expect(results.questions[1].top_shares).toEqual([0, 1, 0, 0]);
    expect(results.questions[1].bottom_shares).toEqual([0, 1, 0, 0]);
  });

  test('an edited quiz: reliability is null with the reason, the kept question keeps its figures', async () => {
    const quiz = await quizWith(picks(8));
    const before = await call('get_results', { quiz_id: quiz.quiz_id, limit: 0 });
    const kept = quiz.questions[0].question_id;
    await call('update_quiz', {
      quiz_id: quiz.quiz_id,
      confirm_edit_published: true,
      questions: [{ question_id: kept, ...QUESTIONS[0] }, QUESTIONS[2]],
    });
    const after = await call('get_results', { quiz_id: quiz.quiz_id, limit: 0 });
    expect(after.item_analysis.reliability.value).toBeNull();
    expect(after.item_analysis.reliability.reason).toMatch(/edited/);
    expect(after.questions[0]).toMatchObject({
      question_id: kept,
      facility: before.questions[0].facility,
      discrimination: before.questions[0].discrimination,
    });
    expect(after.questions[1]).toMatchObject({ answered_count: 0, facility: null, top_shares: null });
  });

  test('multiple_select: every positive option is right; shares count ticks; a typed question counts its right answers', async () => {
    const quiz = await call('create_quiz', {
      title: `Select ${Math.random()}`,
      questions: [
        {
          type: 'multiple_select',
          text: 'Primes?',
          options: [
            { label: '2', score: 1 },
            { label: '3', score: 1 },
            { label: '4', score: -1 },
          ],
        },
        { type: 'number', text: '6 x 7?', correct_number: 42, points: 2 },
      ],
    });
    await call('publish_quiz', { quiz_id: quiz.quiz_id });
    const [select, number] = quiz.questions.map((q: { question_id: string }) => q.question_id);
    // Strong respondents tick 2 and 4 (wrongly) more than 3: option 3 ("4") beats the right "3" at the top.
    const rows: Array<[number[], number]> = [
      [[0, 2], 42],
      [[0, 2], 42],
      [[0, 2], 42],
      [[0, 1], 42],
      [[1], 41],
      [[1], 40],
      [[], 40],
      [[2], 1],
      [[2], 0],
      [[], 0],
    ];
    for (const [choices, value] of rows) {
      await request(app.app)
        .post(`/api/quizzes/${quiz.slug}/responses`)
        .send({
          respondent: { name: 'R' },
          answers: [
            { question_id: select, choices },
            { question_id: number, number: value },
          ],
        })
        .expect(201);
    }
    const results = await call('get_results', { quiz_id: quiz.quiz_id, limit: 0 });
    const [ms, num] = results.questions;
    // Points: [0,2] -> 0, [0,1] -> 2, [1] -> 1, [] -> 0, [2] -> 0 (never below 0). Maximum 2.
    const points = [0, 0, 0, 2, 1, 1, 0, 0, 0, 0];
    expect(ms.facility).toBe(round2(mean(points) / 2));
    expect(ms.options.map((o: { count: number }) => o.count)).toEqual([4, 3, 5]);
    // n = 10: the groups are 2.7 respondents. Percents: 42 earns 2 -> (0+2)/4 = 50%, (2+2)/4 = 100%,
    // (1+0)/4 = 25%, (1+0)/4 = 25%, ... ranked by percent: top = the [0,1] one (100%), then the
    // three [0,2] at 50% share the remaining 1.7.
    const top = [1 + 1.7, 1, 1.7].map((ticks) => round2(ticks / 2.7));
    expect(ms.top_shares).toEqual(top);
    expect(ms.flags.map((flag: { flag: string }) => flag.flag)).toContain('wrong_option_favoured');
    expect(ms.flags.find((flag: { flag: string }) => flag.flag === 'wrong_option_favoured').reason).toMatch(
      /option 3/,
    );
    expect(num).toMatchObject({ type: 'number', right_count: 4, top_shares: null, bottom_shares: null });
    expect(num.facility).toBe(0.4);
  });
});

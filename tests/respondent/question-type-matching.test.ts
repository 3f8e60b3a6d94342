// The matching question type through the real doors: created, read back and updated over MCP,
// taken through an attempt (JSON and form), scored with the marks worked out by hand (a
// distractor chosen, a prompt left empty, two prompts sharing a match), re-marked after a key
// fix, exported to CSV and reviewed; and the proof that nothing a respondent receives before the
// key may be shown pairs a prompt with its match.
import request from 'supertest';
import { exportResponses } from '../../src/domain/quizzes/export-responses';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';
import {
  createTestUser,
  describeEachDatabase,
  startTestApp,
  type TestApp,
  type TestUser,
} from '../helpers/test-app';

// Q1 carries a wrong key at first (Madrid paired with Portugal, Spain offered as the distractor),
// 2 points per pair (maximum 6). Q2: two prompts share a match, 1 point per pair (maximum 3).
const CAPITALS = {
  type: 'matching',
  text: 'Capitals',
  pairs: [
    { prompt: 'Paris', match: 'France' },
    { prompt: 'Rome', match: 'Italy' },
    { prompt: 'Madrid', match: 'Portugal' },
  ],
  extra_matches: [{ label: 'Spain' }],
  points_per_pair: 2,
};
const ANIMALS = {
  type: 'matching',
  text: 'Animals',
  pairs: [
    { prompt: 'Dog', match: 'Mammal' },
    { prompt: 'Cat', match: 'Mammal' },
    { prompt: 'Eagle', match: 'Bird' },
  ],
};
const FIXED_CAPITALS = {
  ...CAPITALS,
  pairs: [
    { prompt: 'Madrid', match: 'Spain' },
    { prompt: 'Paris', match: 'France' },
    { prompt: 'Rome', match: 'Italy' },
  ],
  extra_matches: [{ label: 'Portugal' }],
};

type Part = { label: string } & Record<string, string>;
type Started = {
  attempt_token: string;
  questions: Array<{ question_id: string; text: string; prompts: Part[]; matches: Part[] }>;
};
/** A prompt's label and the match label chosen for it (null: left empty). */
type Answer = Record<string, string | null>;

describeEachDatabase('the matching question type', (provider) => {
  let app: TestApp;
  let user: TestUser;
  let client: AnyClient;

  beforeAll(async () => {
    app = await startTestApp({ provider });
    user = await createTestUser(app, `matching-${provider}`);
    client = await connectClient(app, user.apiKey);
  });
  afterAll(async () => {
    await client.close();
    await app.close();
  });

  const call = async (name: string, args: Record<string, unknown>) =>
    payload(await callTool(client, name, args));

  async function publish(settings: Record<string, unknown> = {}) {
    const quiz = await call('create_quiz', {
      title: 'Match them',
      questions: [CAPITALS, ANIMALS],
      settings: { collect_name: false, require_all_answers: false, ...settings },
    });
    await call('publish_quiz', { quiz_id: quiz.quiz_id });
    return quiz as { quiz_id: string; slug: string; questions: Array<{ question_id: string }> };
  }

  const start = async (slug: string) => {
    const started = await request(app.app).post(`/api/quizzes/${slug}/attempts`).send({});
    expect(started.status).toBe(201);
    return started.body as Started;
  };

  /** The attempt's ids for an answer given by labels. */
  function idsOf(question: Started['questions'][number], answer: Answer) {
    return Object.fromEntries(
      Object.entries(answer).map(([prompt, match]) => [
        question.prompts.find((part) => part.label === prompt)!.prompt_id,
        match === null ? null : question.matches.find((part) => part.label === match)!.match_id,
      ]),
    );
  }

  async function answer(slug: string, capitals: Answer, animals: Answer) {
    const started = await start(slug);
    const byText = (text: string) => started.questions.find((question) => question.text === text)!;
    return request(app.app)
      .post(`/api/quizzes/${slug}/responses`)
      .send({
        attempt_token: started.attempt_token,
        answers: [
          { question_id: byText('Capitals').question_id, matches: idsOf(byText('Capitals'), capitals) },
          { question_id: byText('Animals').question_id, matches: idsOf(byText('Animals'), animals) },
        ],
      });
  }

  test('created, read back and updated over MCP, keeping the question ids', async () => {
    const quiz = await call('create_quiz', { title: 'Pairs', questions: [CAPITALS, ANIMALS] });
    expect(quiz.max_score).toBe(9);
    const read = await call('get_quiz_questions', { quiz_id: quiz.quiz_id });
    expect(read.questions[0]).toMatchObject({
      type: 'matching',
      pairs: CAPITALS.pairs,
      extra_matches: [{ label: 'Spain' }],
      points_per_pair: 2,
    });
    expect(read.questions[1]).toMatchObject({ extra_matches: [], points_per_pair: 1 });
    // Sent back as read, each question keeps its id.
    const updated = await call('update_quiz', {
      quiz_id: quiz.quiz_id,
      questions: read.questions.map((question: Record<string, unknown>) => ({ ...question })),
    });
    expect(updated.questions.map((q: { question_id: string }) => q.question_id)).toEqual(
      read.questions.map((q: { question_id: string }) => q.question_id),
    );
  });

  test('scored by hand: a distractor chosen, a prompt left empty, a shared match; re-marked, exported, reviewed', async () => {
    const quiz = await publish({ show_correct_answers: 'after_submit' });
    // Right by the world, 2 of 3 by the wrong key (Madrid → Spain is the distractor): 4; animals 3. Total 7.
    const world = await answer(
      quiz.slug,
      { Paris: 'France', Rome: 'Italy', Madrid: 'Spain' },
      { Dog: 'Mammal', Cat: 'Mammal', Eagle: 'Bird' },
    );
    expect(world.status).toBe(201);
    expect(world.body).toMatchObject({ score: 7, max_score: 9 });
    // Rome only (2); Dog and Eagle right, Cat given Bird (2). Total 4.
    const mixed = await answer(
      quiz.slug,
      { Paris: 'Spain', Rome: 'Italy', Madrid: 'Spain' },
      { Dog: 'Mammal', Cat: 'Bird', Eagle: 'Bird' },
    );
    expect(mixed.body).toMatchObject({ score: 4, max_score: 9 });
    // Paris alone (2); Rome and Madrid left empty. Animals: Eagle given Mammal, the rest left out (0).
    const sparse = await answer(
      quiz.slug,
      { Paris: 'France', Rome: null, Madrid: null },
      { Eagle: 'Mammal' },
    );
    expect(sparse.body).toMatchObject({ score: 2, max_score: 9 });

    // The review shows each prompt with the match chosen, and the right pairs.
    expect(sparse.body.review[0]).toMatchObject({
      your_answer: 'Paris → France; Rome → —; Madrid → —',
      points: 2,
      max_points: 6,
      correct_answers: ['Paris → France; Rome → Italy; Madrid → Portugal'],
    });
    expect(mixed.body.review[1]).toMatchObject({
      your_answer: 'Dog → Mammal; Cat → Bird; Eagle → Bird',
      points: 2,
      max_points: 3,
    });

    // get_results: the answer string, the matches typed, and per-pair figures.
    const results = await call('get_results', { quiz_id: quiz.quiz_id, limit: 10 });
    const mixedRow = results.responses.find((r: any) => r.score === 4);
    expect(mixedRow.answers[0]).toMatchObject({
      answer: 'Paris → Spain; Rome → Italy; Madrid → Spain',
      matches: ['Spain', 'Italy', 'Spain'],
      option_index: null,
      choices: null,
      points: 2,
      max_points: 6,
    });
    const [capitals, animals] = results.questions;
    expect(capitals).toMatchObject({ type: 'matching', answered_count: 3, right_count: 0 });
    // Paris: France in 2 of 3, Spain once. Rome: Italy in 2 of 3, once left empty (no wrong match).
    expect(capitals.pairs[0]).toMatchObject({
      prompt: 'Paris',
      right_match: 'France',
      right_share: 0.67,
      common_wrong_match: 'Spain',
      common_wrong_count: 1,
    });
    expect(capitals.pairs[1]).toMatchObject({ right_share: 0.67, common_wrong_match: null });
    // Madrid: never Portugal; Spain twice.
    expect(capitals.pairs[2]).toMatchObject({
      right_share: 0,
      common_wrong_match: 'Spain',
      common_wrong_count: 2,
    });
    expect(animals).toMatchObject({ right_count: 1 });
    expect(animals.pairs.map((pair: any) => pair.right_share)).toEqual([0.67, 0.33, 0.67]);
    expect(animals.pairs[1]).toMatchObject({ common_wrong_match: 'Bird', common_wrong_count: 1 });
    // The item analysis: facility is the mean share of the maximum, (4 + 2 + 2) / (3 x 6).
    expect(capitals.facility).toBeCloseTo(8 / 18, 2);

    // The key fixed (Madrid's match is Spain), the pairs reordered: past answers re-marked by prompt.
    const fixed = await call('update_quiz', {
      quiz_id: quiz.quiz_id,
      confirm_edit_published: true,
      remark_past_responses: true,
      questions: [
        { ...FIXED_CAPITALS, question_id: quiz.questions[0]!.question_id },
        { ...ANIMALS, question_id: quiz.questions[1]!.question_id },
      ],
    });
    expect(fixed.remarked_responses).toBe(2);
    const after = await call('get_results', { quiz_id: quiz.quiz_id, limit: 10 });
    // 6 + 3; Rome and Madrid (4) + 2; Paris (2) + 0.
    expect(after.responses.map((r: any) => r.score).sort()).toEqual([2, 6, 9]);

    // The CSV holds the answer string, as results show it.
    const exported = await exportResponses(app.deps, user.id, quiz.quiz_id);
    const cells: string[] = [];
    for await (const row of exported.rows()) cells.push(...row.map(String));
    expect(cells).toContain('Paris → Spain; Rome → Italy; Madrid → Spain');
    expect(cells).toContain('Dog → —; Cat → —; Eagle → Mammal');
  });

  test('bad matches are refused with what to fix, nothing stored; a token is needed', async () => {
    const quiz = await publish();
    const started = await start(quiz.slug);
    const q = started.questions.find((question) => question.text === 'Animals')!;
    const send = (matches: unknown, token: string | undefined = started.attempt_token) =>
      request(app.app)
        .post(`/api/quizzes/${quiz.slug}/responses`)
        .send({
          ...(token ? { attempt_token: token } : {}),
          answers: [{ question_id: q.question_id, matches }],
        });
    const prompt = q.prompts[0]!.prompt_id!;
    const match = q.matches[0]!.match_id!;
    const refusals: Array<[unknown, string]> = [
      [{ nope: match }, 'is not a prompt_id of this attempt'],
      [{ [prompt]: 'nope' }, 'takes a match_id of this attempt'],
      [{ [prompt]: null }, 'gives no prompt a match'],
      [[match], 'must be an object'],
    ];
    for (const [matches, words] of refusals) {
      const refused = await send(matches);
      expect(refused.status).toBe(422);
      expect(JSON.stringify(refused.body.errors)).toContain(words);
    }
    const noToken = await send({ [prompt]: match }, '');
    expect(noToken.status).toBe(409);
    expect(noToken.body.detail).toContain('taken through an attempt');
    // Ids of another attempt name nothing here.
    const other = (await start(quiz.slug)).questions.find((question) => question.text === 'Animals')!;
    expect((await send({ [other.prompts[0]!.prompt_id!]: other.matches[0]!.match_id })).status).toBe(422);
    const results = await call('get_results', { quiz_id: quiz.quiz_id });
    expect(results.summary.response_count).toBe(0);
  });

  test('nothing a respondent receives pairs a prompt with its match: attempt, form and scripts', async () => {
    const quiz = await publish();
    const seen = new Set<string>();
    const alignments = new Set<string>();
    for (let i = 0; i < 8; i += 1) {
      const started = await start(quiz.slug);
      const capitals = started.questions.find((question) => question.text === 'Capitals')!;
      // Every match offered once, under ids random and new with each attempt.
      expect(capitals.matches.map((part) => part.label).sort()).toEqual([
        'France',
        'Italy',
        'Portugal',
        'Spain',
      ]);
      for (const part of [...capitals.prompts, ...capitals.matches]) {
        const id = part.prompt_id ?? part.match_id!;
        expect(id).toMatch(/^[A-Za-z0-9_-]{8}$/);
        expect(seen.has(id)).toBe(false);
        seen.add(id);
        expect(Object.keys(part).sort()).toEqual([part.prompt_id ? 'prompt_id' : 'match_id', 'label'].sort());
      }
      // Where each prompt's right match stands among the matches shown: drawn anew each time.
      const rights = capitals.prompts.map((prompt) =>
        capitals.matches.findIndex(
          (match) => match.label === CAPITALS.pairs.find((pair) => pair.prompt === prompt.label)!.match,
        ),
      );
      alignments.add(rights.join(','));
      expect(JSON.stringify(started)).not.toMatch(/"(index|position|option_index|score|points|match)"/);
    }
    expect(alignments.size).toBeGreaterThan(1);

    // The form of a started attempt: values "<prompt id>:<match id>" only, every match under every prompt.
    const begun = await request(app.app).post(`/q/${quiz.slug}/start`).type('form').send({});
    const page = await request(app.app).get(String(begun.headers.location));
    expect(page.status).toBe(200);
    const html = page.text;
    const values = [...html.matchAll(/<option\s+value="([^"]*)"/g)].map((match) => match[1]!);
    expect(
      values
        .filter((value) => value !== '')
        .every((value) => /^[A-Za-z0-9_-]{8}:[A-Za-z0-9_-]{8}$/.test(value)),
    ).toBe(true);
    // The page's scripts: files that hold nothing of the quiz, and no inline script.
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, inline] of scripts) {
      expect(inline!.trim()).toBe('');
      const src = /src="([^"]+)"/.exec(attributes!)![1]!;
      const body = (await request(app.app).get(src)).text;
      expect(body.length).toBeGreaterThan(0);
      for (const word of ['France', 'Italy', 'Portugal', 'Mammal', 'Paris']) expect(body).not.toContain(word);
    }
  });

  test('the form: one labelled select per prompt; a value never offered is named, a partial answer scored', async () => {
    const quiz = await publish();
    const begun = await request(app.app).post(`/q/${quiz.slug}/start`).type('form').send({});
    const token = decodeURIComponent(String(begun.headers.location).split('attempt=')[1] ?? '');
    const page = (await request(app.app).get(String(begun.headers.location))).text;
    // Each select by the prompt in its label, its options by their text.
    const selects = [
      ...page.matchAll(
        /<label class="match-label" for="([^"]+)"\s*><span dir="auto">([^<]+)<\/span><\/label\s*>\s*<select\s+id="([^"]+)"\s+name="(q_[^"]+)"[^>]*>([\s\S]*?)<\/select>/g,
      ),
    ].map((match) => ({
      prompt: match[2]!,
      labelled: match[1] === match[3],
      name: match[4]!,
      options: new Map(
        [...match[5]!.matchAll(/<option\s+value="([^"]+)"\s*>\s*([^<]*?)\s*<\/option>/g)].map((v) => [
          v[2]!,
          v[1]!,
        ]),
      ),
    }));
    expect(selects).toHaveLength(6);
    expect(selects.every((select) => select.labelled)).toBe(true);
    const capitalsKey: Answer = { Paris: 'France', Rome: 'Italy', Madrid: 'Spain' };
    const animalsKey: Answer = { Dog: 'Mammal', Cat: 'Mammal', Eagle: 'Bird' };

    const tampered = new URLSearchParams({ attempt_token: token });
    for (const select of selects) {
      const match = capitalsKey[select.prompt] ?? animalsKey[select.prompt]!;
      tampered.append(select.name, select.prompt === 'Dog' ? 'forged:value' : select.options.get(match)!);
    }
    const refused = await request(app.app).post(`/q/${quiz.slug}`).type('form').send(tampered.toString());
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('Choose one of the answers listed.');
    // The matches chosen are kept.
    expect(refused.text).toMatch(/value="[A-Za-z0-9_-]{8}:[A-Za-z0-9_-]{8}"\s+selected/);

    // Rome left empty: Paris and Madrid (Spain is the wrong key's distractor) give 2; animals all right, 3.
    const partial = new URLSearchParams({ attempt_token: token });
    for (const select of selects) {
      const match = capitalsKey[select.prompt] ?? animalsKey[select.prompt]!;
      partial.append(select.name, select.prompt === 'Rome' ? '' : select.options.get(match)!);
    }
    const sent = await request(app.app).post(`/q/${quiz.slug}`).type('form').send(partial.toString());
    expect(sent.status).toBe(303);
    const results = await call('get_results', { quiz_id: quiz.quiz_id });
    expect(results.responses[0]).toMatchObject({ score: 5, max_score: 9 });
    expect(results.responses[0].answers[0].answer).toBe('Paris → France; Rome → —; Madrid → Spain');
  });

  test('create_quiz names what is wrong with a matching question', async () => {
    const res = await callTool(client, 'create_quiz', {
      title: 'Bad',
      questions: [
        { type: 'matching', text: 'Too few', pairs: [{ prompt: 'A', match: '1' }] },
        {
          type: 'matching',
          text: 'Twice',
          pairs: [
            { prompt: 'A', match: '1' },
            { prompt: 'A', match: '2' },
          ],
        },
        {
          type: 'matching',
          text: 'Extra is a match',
          pairs: [
            { prompt: 'A', match: '1' },
            { prompt: 'B', match: '2' },
          ],
          extra_matches: [{ label: '2' }],
        },
        { type: 'matching', text: 'No match', pairs: [{ prompt: 'A' }, { prompt: 'B', match: ' ' }] },
        { type: 'matching', text: 'Items', items: [{ label: 'A' }] },
      ],
    });
    const text = JSON.stringify(res);
    expect(text).toContain('needs at least 2 pairs');
    expect(text).toContain('pairs[1] repeats the prompt of pairs[0]');
    expect(text).toContain('extra_matches[0] is the match of pairs[1]');
    expect(text).toContain('match must not be empty');
    expect(text).toContain('a matching question takes no items');
  });
});

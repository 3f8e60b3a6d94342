// Reading less, through the SDK clients of both eras on both databases: a few questions or the
// respondents' view from get_quiz_questions, a score filter, a score order with its own cursor, a
// projection and no statistics from get_results, and list_quizzes by status and title. Holds the
// figures of the assistant benchmark: the typo on a 100-question quiz at most 3 KB each way, and
// "below 50%" over 30 responses at most 3 KB returned.
import request from 'supertest';
import {
  callTool,
  connectClient,
  errorText,
  forEachEra,
  payload,
  type AnyClient,
  type ToolResult,
} from '../helpers/mcp-clients';
import { createTestUser, describeEachDatabase, startTestApp, type TestApp } from '../helpers/test-app';
import { reportFigure } from '../helpers/figures';

const KB = 1024;

/** The benchmark's questions: yes_no and four-option multiple_choice, alternating. */
function question(index: number) {
  return index % 2 === 0
    ? {
        type: 'yes_no',
        text: `Question ${index + 1}: is the statement about photosynthesis true?`,
        points: 1,
      }
    : {
        type: 'multiple_choice',
        text: `Question ${index + 1}: which of these best describes the light reactions?`,
        options: [
          { label: 'They make oxygen', score: 1 },
          { label: 'They fix carbon dioxide', score: 0 },
          { label: 'They happen at night', score: 0 },
          { label: 'They need no water', score: 0 },
        ],
        explanation: 'The light reactions split water and release oxygen.',
      };
}

/** What the client sends (the arguments) and receives (the content and the structured copy). */
function sizes(args: Record<string, unknown>, result: ToolResult) {
  return {
    sent: Buffer.byteLength(JSON.stringify(args)),
    received:
      Buffer.byteLength(JSON.stringify(result.content)) +
      Buffer.byteLength(JSON.stringify(result.structuredContent ?? null)),
  };
}

describeEachDatabase('reading less', (provider) => {
  let app: TestApp;
  let apiKey: string;
  let quiz: any;
  let big: any;
  let percents: number[];

  beforeAll(async () => {
    app = await startTestApp({ provider });
    apiKey = (await createTestUser(app, 'reading')).apiKey;
    const client = await connectClient(app, apiKey);
    try {
      const call = async (tool: string, args: Record<string, unknown>) =>
        payload(await callTool(client, tool, args));
      quiz = await call('create_quiz', {
        title: 'Photosynthesis',
        questions: Array.from({ length: 10 }, (_, i) => question(i)),
      });
      await call('publish_quiz', { quiz_id: quiz.quiz_id });
      for (let n = 0; n < 30; n += 1) {
        const answers = quiz.questions.map((q: any, index: number) =>
          q.type === 'yes_no'
            ? { question_id: q.question_id, answer: (n + index) % 3 === 0 ? 'no' : 'yes' }
            : { question_id: q.question_id, option_index: (n * 7 + index) % 4 === 0 ? 0 : (n + index) % 4 },
        );
        const res = await request(app.app)
          .post(`/api/quizzes/${quiz.slug}/responses`)
          .send({ respondent: { name: `Student ${n + 1}` }, answers });
        expect(res.status).toBe(201);
      }
      big = await call('create_quiz', {
        title: 'Biology bank',
        questions: Array.from({ length: 100 }, (_, i) => question(i)),
      });
      await call('publish_quiz', { quiz_id: big.quiz_id });
      const all = await call('get_results', { quiz_id: quiz.quiz_id, limit: 100, include_answers: false });
      percents = all.responses.map((r: any) => r.percent);
    } finally {
      await client.close();
    }
  }, 120_000);
  afterAll(async () => {
    await app.close();
  });

  forEachEra((era) => {
    let client: AnyClient;
    beforeAll(async () => {
      client = await era.connect(app, apiKey);
    });
    afterAll(async () => {
      await client.close();
    });
    const call = async (tool: string, args: Record<string, unknown>) =>
      payload(await callTool(client, tool, args));

    test('a typo in question 3 of 100: one question read, one operation sent, at most 3 KB each way', async () => {
      const id = big.questions[2].question_id;
      const readArgs = { quiz_id: big.quiz_id, question_ids: [id] };
      const read = await callTool(client, 'get_quiz_questions', readArgs);
      const q3 = payload(read).questions[0];
      expect(q3).toMatchObject({ question_id: id, position: 3, type: 'yes_no', points: 1 });
      const editArgs = {
        quiz_id: big.quiz_id,
        confirm_edit_published: true,
        operations: [{ op: 'update', question_id: id, text: `${q3.text} (fixed)` }],
      };
      const edit = await callTool(client, 'edit_questions', editArgs);
      expect(payload(edit).changes).toMatchObject([{ question_id: id, id: 'kept' }]);
      const a = sizes(readArgs, read);
      const b = sizes(editArgs, edit);
      reportFigure(
        `[${era.label}] typo on 100 questions: ${a.sent + b.sent} bytes sent, ${a.received + b.received} received`,
      );
      expect(a.sent + b.sent).toBeLessThanOrEqual(3 * KB);
      expect(a.received + b.received).toBeLessThanOrEqual(3 * KB);
    });

    test('who scored below 50% of 30 responses: at most 3 KB, exactly those, lowest first', async () => {
      const args = {
        quiz_id: quiz.quiz_id,
        score_below: 50,
        order: 'score_asc',
        fields: ['respondent', 'percent'],
        include_statistics: false,
        limit: 100,
      };
      const result = await callTool(client, 'get_results', args);
      const { received } = sizes(args, result);
      const text = Buffer.byteLength((result.content as Array<{ text: string }>)[0]!.text);
      reportFigure(`[${era.label}] below 50% of 30 responses: ${text} bytes of text, ${received} received`);
      // "Returned" as the benchmark counts it: the text a model reads (structuredContent repeats it).
      expect(text).toBeLessThanOrEqual(3 * KB);
      const body = payload(result);
      const below = percents.filter((p) => p < 50).sort((x, y) => x - y);
      expect(below.length).toBeGreaterThan(0);
      expect(body.responses.map((r: any) => r.percent)).toEqual(below);
      expect(body.responses.every((r: object) => Object.keys(r).sort().join() === 'percent,respondent')).toBe(
        true,
      );
      expect(body).not.toHaveProperty('questions');
      expect(body).not.toHaveProperty('item_analysis');
      expect(body.summary.response_count).toBe(30);
      expect(body.matching).toEqual({
        count: below.length,
        no_percent: 0,
        in_progress: 0,
        note: expect.stringMatching(/every response has a percent/i),
      });
      expect(body.next_cursor).toBeNull();
    });

    test('a score order pages with its own cursor, every response once, ties in time order', async () => {
      for (const order of ['score_asc', 'score_desc'] as const) {
        const seen: any[] = [];
        let cursor: string | undefined;
        do {
          const page = await call('get_results', {
            quiz_id: quiz.quiz_id,
            order,
            limit: 7,
            include_answers: false,
            include_statistics: false,
            ...(cursor ? { cursor } : {}),
          });
          seen.push(...page.responses);
          cursor = page.next_cursor ?? undefined;
        } while (cursor);
        expect(new Set(seen.map((r) => r.response_id)).size).toBe(30);
        const sorted = [...percents].sort((x, y) => (order === 'score_asc' ? x - y : y - x));
        expect(seen.map((r) => r.percent)).toEqual(sorted);
      }
      const timePage = await call('get_results', { quiz_id: quiz.quiz_id, limit: 2 });
      const refused = errorText(
        await callTool(client, 'get_results', {
          quiz_id: quiz.quiz_id,
          order: 'score_asc',
          cursor: timePage.next_cursor,
        }),
      );
      expect(refused).toMatch(/cursor/);
      expect(refused).toMatch(/not a cursor of a score order/);
      const oldest = await call('get_results', { quiz_id: quiz.quiz_id, order: 'time_asc', limit: 30 });
      const newest = await call('get_results', { quiz_id: quiz.quiz_id, limit: 30 });
      expect(oldest.responses.map((r: any) => r.response_id)).toEqual(
        newest.responses.map((r: any) => r.response_id).reverse(),
      );
      expect(newest).not.toHaveProperty('matching');
      expect(newest.questions).toHaveLength(10);
    });

    test('bad filters are field errors that say what to send', async () => {
      const crossed = errorText(
        await callTool(client, 'get_results', { quiz_id: quiz.quiz_id, score_below: 40, score_above: 60 }),
      );
      expect(crossed).toMatch(/score_below/);
      expect(
        errorText(await callTool(client, 'get_results', { quiz_id: quiz.quiz_id, score_below: 120 })),
      ).toMatch(/score_below must be a percent from 0 to 100/);
      expect(
        errorText(
          await callTool(client, 'get_results', { quiz_id: quiz.quiz_id, fields: ['score', 'grade'] }),
        ),
      ).toMatch(/not a response field: use response_id, .*percent/);
    });

    test('get_quiz_questions: a range, or the questions as respondents see them', async () => {
      const range = await call('get_quiz_questions', { quiz_id: quiz.quiz_id, from: 2, to: 3 });
      expect(range.questions.map((q: any) => q.position)).toEqual([2, 3]);
      expect(range.questions[0]).toMatchObject({
        question_id: quiz.questions[1].question_id,
        type: 'multiple_choice',
      });
      expect(range.question_count).toBe(10);
      const tail = await call('get_quiz_questions', { quiz_id: quiz.quiz_id, from: 9, to: 50 });
      expect(tail.questions.map((q: any) => q.position)).toEqual([9, 10]);

      const seen = await call('get_quiz_questions', { quiz_id: quiz.quiz_id, view: 'respondent' });
      expect(seen.view).toBe('respondent');
      expect(seen.questions).toHaveLength(10);
      expect(seen.questions[0]).toEqual({
        question_id: quiz.questions[0].question_id,
        type: 'yes_no',
        text: quiz.questions[0].text,
      });
      expect(seen.questions[1].options).toEqual([
        { label: 'They make oxygen' },
        { label: 'They fix carbon dioxide' },
        { label: 'They happen at night' },
        { label: 'They need no water' },
      ]);
      const whole = JSON.stringify(seen);
      for (const key of ['score', 'points', 'correct_answer', 'explanation'])
        expect(whole).not.toContain(`"${key}"`);

      expect(
        errorText(
          await callTool(client, 'get_quiz_questions', { quiz_id: quiz.quiz_id, question_ids: ['nope'] }),
        ),
      ).toMatch(/question_ids\[0\].*not a question of this quiz/);
      expect(
        errorText(await callTool(client, 'get_quiz_questions', { quiz_id: quiz.quiz_id, from: 11 })),
      ).toMatch(/has 10 questions/);
      expect(
        errorText(await callTool(client, 'get_quiz_questions', { quiz_id: quiz.quiz_id, from: 0 })),
      ).toMatch(/from must be at least 1/);
    });

    test('list_quizzes by status and by part of the title', async () => {
      const drafts = await call('list_quizzes', { status: 'draft' });
      expect(drafts.quizzes.every((q: any) => q.status === 'draft')).toBe(true);
      const open = await call('list_quizzes', { status: 'open' });
      expect(open.quizzes.map((q: any) => q.title).sort()).toEqual(['Biology bank', 'Photosynthesis']);
      const found = await call('list_quizzes', { search: 'PHOTO' });
      expect(found.quizzes.map((q: any) => q.title)).toEqual(['Photosynthesis']);
      expect(errorText(await callTool(client, 'list_quizzes', { status: 'archived' }))).toMatch(
        /status must be one of draft, published, open, closed/,
      );
    });
  });

  test('responses without a percent are set apart, counted and said so', async () => {
    const client = await connectClient(app, apiKey);
    try {
      const call = async (tool: string, args: Record<string, unknown>) =>
        payload(await callTool(client, tool, args));
      // A quiz that scores nothing gives its responses no percent; scored questions come later.
      const survey = await call('create_quiz', {
        title: 'Survey first',
        questions: [{ type: 'short_text', text: 'Your name for the wall?' }],
      });
      await call('publish_quiz', { quiz_id: survey.quiz_id });
      const post = (answers: unknown[]) =>
        request(app.app)
          .post(`/api/quizzes/${survey.slug}/responses`)
          .send({ respondent: { name: 'Ana' }, answers });
      expect((await post([{ question_id: survey.questions[0].question_id, text: 'Ana' }])).status).toBe(201);
      const edited = await call('edit_questions', {
        quiz_id: survey.quiz_id,
        confirm_edit_published: true,
        operations: [{ op: 'add', type: 'yes_no', text: 'Is the sky blue?' }],
      });
      const yesNo = edited.changes[0].question_id;
      expect(
        (
          await post([
            { question_id: survey.questions[0].question_id, text: 'Bo' },
            { question_id: yesNo, answer: 'no' },
          ])
        ).status,
      ).toBe(201);
      const below = await call('get_results', { quiz_id: survey.quiz_id, score_below: 50 });
      expect(below.responses.map((r: any) => r.percent)).toEqual([0]);
      expect(below.matching).toMatchObject({ count: 1, no_percent: 1, in_progress: 0 });
      expect(below.matching.note).toMatch(/1 response has no percent/);
      // Without a filter or a score order, every response is listed, as today.
      const all = await call('get_results', { quiz_id: survey.quiz_id });
      expect(all.responses).toHaveLength(2);
    } finally {
      await client.close();
    }
  });
});

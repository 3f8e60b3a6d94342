// Bad input gets an isError that names each field and says what to fix, and loses nothing.
import { createTestUser, sampleQuestions, startTestApp, type TestApp } from '../helpers/test-app';
import { callTool, errorText, payload, type AnyClient, forEachEra } from '../helpers/mcp-clients';

describe('bad tool arguments', () => {
  forEachEra((era) => {
    let app: TestApp;
    let client: AnyClient;
    let quiz: Record<string, any>;

    beforeAll(async () => {
      // Each case makes two calls: room for all of them within one rate-limit window.
      app = await startTestApp({ config: { rateLimit: { max: 1000, windowSeconds: 60 } } });
      client = await era.connect(app, (await createTestUser(app)).apiKey);
      quiz = payload(
        await callTool(client, 'create_quiz', { title: 'Untouchable', questions: sampleQuestions() }),
      );
    });
    afterAll(async () => {
      await client.close();
      await app.close();
    });

    const yesNo = (extra: Record<string, unknown> = {}) => ({
      type: 'yes_no',
      text: 'Q',
      points: 1,
      ...extra,
    });
    const choice = (options: unknown, extra: Record<string, unknown> = {}) => ({
      type: 'multiple_choice',
      text: 'Q',
      options,
      ...extra,
    });
    const opts = (n: number) => Array.from({ length: n }, (_, i) => ({ label: `o${i}`, score: i }));

    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['missing title', { questions: [] }, /- title: is required/],
      ['empty title', { title: '   ', questions: [] }, /- title: title must not be empty/],
      [
        'title of 201 characters',
        { title: 'x'.repeat(201) },
        /- title: title is too long: at most 200 characters \(got 201\)/,
      ],
      ['title of the wrong type', { title: 42 }, /- title: title must be a string/],
      [
        'questions not an array',
        { title: 't', questions: 'nope' },
        /- questions: questions must be an array/,
      ],
      [
        '101 questions',
        { title: 't', questions: Array.from({ length: 101 }, () => yesNo()) },
        /at most 100 questions/,
      ],
      [
        'unknown question type',
        { title: 't', questions: [{ type: 'drawing', text: 'Q' }] },
        /- questions\[0\]\.type: type must be "yes_no", "multiple_choice", "multiple_select", "short_text", "number", .*"essay"/,
      ],
      [
        'question text missing',
        { title: 't', questions: [{ type: 'yes_no', points: 1 }] },
        /- questions\[0\]\.text: is required/,
      ],
      [
        'question text too long',
        { title: 't', questions: [yesNo({ text: 'q'.repeat(2001) })] },
        /questions\[0\]\.text: text is too long: at most 2000/,
      ],
      [
        'points not an integer',
        { title: 't', questions: [yesNo({ points: 1.5 })] },
        /questions\[0\]\.points: points must be a whole number/,
      ],
      [
        'points out of range',
        { title: 't', questions: [yesNo({ points: 1001 })] },
        /questions\[0\]\.points: points must be at most 1000/,
      ],
      [
        'points as a string',
        { title: 't', questions: [yesNo({ points: '3' })] },
        /questions\[0\]\.points: points must be an integer between -1000 and 1000/,
      ],
      [
        '21 options',
        { title: 't', questions: [choice(opts(21))] },
        /questions\[0\]\.options: a question takes at most 20 options/,
      ],
      [
        'option label empty',
        {
          title: 't',
          questions: [
            choice([
              { label: '', score: 1 },
              { label: 'b', score: 0 },
            ]),
          ],
        },
        /questions\[0\]\.options\[0\]\.label: label must not be empty/,
      ],
      [
        'option label too long',
        { title: 't', questions: [choice([{ label: 'l'.repeat(201) }, { label: 'b' }])] },
        /options\[0\]\.label: label is too long/,
      ],
      [
        'option score out of range',
        { title: 't', questions: [choice([{ label: 'a', score: -1001 }, { label: 'b' }])] },
        /options\[0\]\.score: score must be at least -1000/,
      ],
      ['unknown top-level field', { title: 't', colour: 'red' }, /- colour: is not a known field: remove it/],
      [
        'unknown question field',
        { title: 't', questions: [yesNo({ answer: 'yes' })] },
        /- questions\[0\]\.answer: is not a known field/,
      ],
      [
        'options on a yes_no question',
        { title: 't', questions: [yesNo({ options: opts(2) })] },
        /questions\[0\]\.options: a yes_no question takes no options \(only multiple_choice, multiple_select\): remove it/,
      ],
      [
        'a multiple_select question with one option',
        { title: 't', questions: [{ type: 'multiple_select', text: 'Q', options: opts(1) }] },
        /questions\[0\]\.options: a multiple_select question needs at least 2 options \(got 1\)/,
      ],
      [
        'a number question without its right value',
        { title: 't', questions: [{ type: 'number', text: '7 x 8?' }] },
        /questions\[0\]\.correct_number: a number question needs correct_number/,
      ],
      [
        'a negative tolerance',
        { title: 't', questions: [{ type: 'number', text: '7 x 8?', correct_number: 56, tolerance: -1 }] },
        /questions\[0\]\.tolerance: tolerance must be at least 0/,
      ],
      [
        '21 accepted answers',
        {
          title: 't',
          questions: [
            {
              type: 'short_text',
              text: 'Q',
              accepted_answers: Array.from({ length: 21 }, (_, i) => `a${i}`),
            },
          ],
        },
        /questions\[0\]\.accepted_answers: accepted_answers takes at most 20 answers/,
      ],
      [
        'accepted answers on a number question',
        {
          title: 't',
          questions: [{ type: 'number', text: 'Q', correct_number: 1, accepted_answers: ['1'] }],
        },
        /questions\[0\]\.accepted_answers: a number question takes no accepted_answers \(only short_text\): remove it/,
      ],
      [
        'a right number beyond the largest exact magnitude',
        { title: 't', questions: [{ type: 'number', text: 'Q', correct_number: 1e13 }] },
        /questions\[0\]\.correct_number: correct_number must be at most 1000000000000/,
      ],
      [
        'bad settings value',
        { title: 't', settings: { pass_mark_percent: 120 } },
        /settings\.pass_mark_percent: pass_mark_percent must be at most 100/,
      ],
      [
        'unknown setting',
        { title: 't', settings: { theme: 'dark' } },
        /settings\.theme: is not a known field/,
      ],
    ];

    test.each(cases)(
      'create_quiz with %s: a clear isError and no quiz created',
      async (_name, args, message) => {
        const before = payload(await callTool(client, 'list_quizzes', { limit: 100 })).quizzes.length;
        const text = errorText(await callTool(client, 'create_quiz', args));
        expect(text).toMatch(/^Invalid arguments for create_quiz; nothing was changed/);
        expect(text).toMatch(message);
        expect(payload(await callTool(client, 'list_quizzes', { limit: 100 })).quizzes).toHaveLength(before);
      },
    );

    test('several problems at once are all listed, each by its path', async () => {
      const text = errorText(
        await callTool(client, 'create_quiz', {
          title: '',
          questions: [yesNo(), choice(opts(1)), yesNo({ points: 5000 })],
        }),
      );
      expect(text).toMatch(/- title:/);
      expect(text).toMatch(/- questions\[1\]\.options:/);
      expect(text).toMatch(/- questions\[2\]\.points:/);
      expect(text).not.toMatch(/questions\[0\]/);
    });

    test.each([
      ['a bad question among good ones', { questions: [yesNo(), choice([{ label: 'only' }])] }],
      ['an unknown field', { questions: [yesNo()], colour: 'red' }],
      ['nothing to change', {}],
      ['a bad title with good questions', { questions: [yesNo()], title: '' }],
      ['a quiz_id of the wrong type', { quiz_id: 7, questions: [yesNo()] }],
    ])('a failed update_quiz (%s) leaves the old questions intact', async (_name, args) => {
      const text = errorText(await callTool(client, 'update_quiz', { quiz_id: quiz.quiz_id, ...args }));
      expect(text.length).toBeGreaterThan(20);
      const after = payload(await callTool(client, 'get_quiz_questions', { quiz_id: quiz.quiz_id }));
      expect(after.questions).toEqual(quiz.questions);
      expect(after.title).toBe('Untouchable');
    });

    test.each(['get_quiz_questions', 'get_quiz_settings', 'publish_quiz', 'get_results', 'delete_quiz'])(
      '%s without quiz_id, or with an empty one, says to pass it',
      async (tool) => {
        expect(errorText(await callTool(client, tool, {}))).toMatch(/- quiz_id: is required/);
        expect(errorText(await callTool(client, tool, { quiz_id: '  ' }))).toMatch(
          /quiz_id must not be empty/,
        );
      },
    );

    test('list_quizzes pages at least one quiz; get_results takes limit 0 (the summary alone)', async () => {
      expect(errorText(await callTool(client, 'list_quizzes', { limit: 0 }))).toMatch(
        /limit must be at least 1/,
      );
      expect(errorText(await callTool(client, 'get_results', { quiz_id: quiz.quiz_id, limit: -1 }))).toMatch(
        /limit must be at least 0/,
      );
      expect(
        payload(await callTool(client, 'get_results', { quiz_id: quiz.quiz_id, limit: 0 })).responses,
      ).toEqual([]);
    });

    test.each([
      [{ limit: 101 }, /limit must be at most 100/],
      [{ limit: 2.5 }, /limit must be a whole number/],
      [{ cursor: 12 }, /cursor must be a string/],
    ])('list_quizzes and get_results bound their page size: %j', async (args, message) => {
      expect(errorText(await callTool(client, 'list_quizzes', args))).toMatch(message);
      expect(errorText(await callTool(client, 'get_results', { quiz_id: quiz.quiz_id, ...args }))).toMatch(
        message,
      );
    });

    test('confirm flags must be booleans: a string "true" is refused, not taken as consent', async () => {
      expect(
        errorText(await callTool(client, 'delete_quiz', { quiz_id: quiz.quiz_id, confirm: 'true' })),
      ).toMatch(/- confirm: confirm must be true or false/);
      expect(
        payload(await callTool(client, 'get_quiz_questions', { quiz_id: quiz.quiz_id })).questions,
      ).toHaveLength(2);
    });

    test('the largest valid quiz (100 questions of 20 options) is accepted whole', async () => {
      const questions = Array.from({ length: 100 }, (_, i) => choice(opts(20), { text: `Question ${i}` }));
      const created = payload(await callTool(client, 'create_quiz', { title: 'Big one', questions }));
      expect(created.question_count).toBe(100);
      const read = payload(await callTool(client, 'get_quiz_questions', { quiz_id: created.quiz_id }));
      expect(read.questions[99].text).toBe('Question 99');
      expect(read.questions[99].options).toHaveLength(20);
      expect(read.max_score).toBe(100 * 19);
    });
  });
});

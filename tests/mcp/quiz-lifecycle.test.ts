// The spec's state table and numbered rules, each through the real endpoint with the SDK's Client.
import {
  createTestUser,
  describeEachDatabase,
  sampleQuestions,
  startTestApp,
  type TestApp,
  type TestUser,
} from '../helpers/test-app';
import { callTool, errorText, payload, type AnyClient, forEachEra } from '../helpers/mcp-clients';

describeEachDatabase('quiz lifecycle over MCP', (provider) => {
  forEachEra((era) => {
    let app: TestApp;
    let user: TestUser;
    let client: AnyClient;

    beforeAll(async () => {
      app = await startTestApp({ provider });
      user = await createTestUser(app);
      client = await era.connect(app, user.apiKey);
    });
    afterAll(async () => {
      await client.close();
      await app.close();
    });

    const questionTexts = async (ref: string) =>
      payload(await callTool(client, 'get_quiz_questions', { quiz_id: ref })).questions.map(
        (q: { text: string }) => q.text,
      );

    test('create_quiz with publish: true is published at once, its link given; reply "brief" gives settings and ids', async () => {
      const quiz = payload(
        await callTool(client, 'create_quiz', {
          title: 'Published at once',
          questions: sampleQuestions(),
          settings: { pass_mark_percent: 60 },
          publish: true,
        }),
      );
      expect(quiz).toMatchObject({
        status: 'published',
        public_url: expect.stringMatching(/\/q\/published-at-once-/),
      });
      expect(Date.parse(quiz.published_at)).not.toBeNaN();
      expect(quiz.questions).toHaveLength(sampleQuestions().length);
      const settings = payload(await callTool(client, 'get_quiz_settings', { quiz_id: quiz.quiz_id }));
      expect(settings).toMatchObject({ status: 'published', published_at: quiz.published_at, is_open: true });

      const brief = payload(
        await callTool(client, 'create_quiz', {
          title: 'Brief at once',
          questions: sampleQuestions(),
          settings: { pass_mark_percent: 60 },
          publish: true,
          reply: 'brief',
        }),
      );
      expect(brief).not.toHaveProperty('questions');
      const questions = payload(
        await callTool(client, 'get_quiz_questions', { quiz_id: brief.quiz_id }),
      ).questions;
      expect(brief.question_ids).toEqual(questions.map((q: { question_id: string }) => q.question_id));
      const read = payload(await callTool(client, 'get_quiz_settings', { quiz_id: brief.quiz_id }));
      // get_quiz_settings also counts the quiz's webhook endpoints, which a new quiz has none of.
      const { quiz_id, slug, title, status, published_at, public_url, question_count, max_score, ...rest } =
        read;
      expect(rest.webhook_endpoints).toBe(0);
      delete rest.webhook_endpoints;
      expect(brief).toMatchObject({
        quiz_id,
        slug,
        title,
        status,
        published_at,
        public_url,
        question_count,
        max_score,
      });
      expect(brief.settings).toEqual({ ...rest, updated_at: expect.any(String) });
      expect(brief.settings.pass_mark_percent).toBe(60);
      const draft = payload(
        await callTool(client, 'create_quiz', {
          title: 'Brief draft',
          questions: sampleQuestions(),
          reply: 'brief',
        }),
      );
      expect(draft).toMatchObject({ status: 'draft', public_url: null });
      expect(draft).not.toHaveProperty('published_at');

      const refused = errorText(
        await callTool(client, 'create_quiz', { title: 'Nothing to publish', publish: true }),
      );
      expect(refused).toContain('publish');
      const listed = payload(await callTool(client, 'list_quizzes', {}));
      expect(listed.quizzes.map((q: { title: string }) => q.title)).not.toContain('Nothing to publish');
    });

    test('create_quiz (valid arguments) -> draft, returning quiz_id and status', async () => {
      const quiz = payload(
        await callTool(client, 'create_quiz', { title: 'Lifecycle one', questions: sampleQuestions() }),
      );
      expect(quiz.status).toBe('draft');
      expect(typeof quiz.quiz_id).toBe('string');
      expect(quiz.slug).toMatch(/^lifecycle-one-[a-z0-9]{6}$/);
      expect(quiz.public_url).toBeNull();
      expect(quiz.max_score).toBe(5);
      expect(quiz.questions).toEqual([
        {
          question_id: expect.any(String),
          type: 'yes_no',
          text: 'Is the sky blue?',
          points: 2,
          correct_answer: 'yes',
          explanation: null,
        },
        {
          question_id: expect.any(String),
          type: 'multiple_choice',
          text: 'Capital of Italy?',
          explanation: null,
          options: [
            { label: 'Rome', score: 3 },
            { label: 'Milan', score: 0 },
            { label: 'Turin', score: -1 },
          ],
        },
      ]);
      const listed = payload(await callTool(client, 'list_quizzes'));
      expect(listed.quizzes.map((q: { quiz_id: string }) => q.quiz_id)).toContain(quiz.quiz_id);
    });

    test('draft + update_quiz -> draft, questions replaced with the supplied ones', async () => {
      const quiz = payload(
        await callTool(client, 'create_quiz', { title: 'Lifecycle two', questions: sampleQuestions() }),
      );
      const updated = payload(
        await callTool(client, 'update_quiz', {
          quiz_id: quiz.quiz_id,
          questions: [{ type: 'yes_no', text: 'Only question now?', points: 1 }],
        }),
      );
      expect(updated.status).toBe('draft');
      expect(updated.questions).toHaveLength(1);
      expect(await questionTexts(quiz.quiz_id)).toEqual(['Only question now?']);
    });

    test('draft + publish_quiz -> published, with a public URL; publishing again is a no-op that says so', async () => {
      const quiz = payload(
        await callTool(client, 'create_quiz', { title: 'Lifecycle three', questions: sampleQuestions() }),
      );
      const published = payload(await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id }));
      expect(published).toMatchObject({
        status: 'published',
        already_published: false,
        public_url: `${app.baseUrl}/q/${quiz.slug}`,
      });
      expect(quiz.slug).toMatch(/^lifecycle-three-[a-z0-9]{6}$/);
      expect(Date.parse(published.published_at)).not.toBeNaN();
      const again = payload(await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id }));
      expect(again).toMatchObject({
        status: 'published',
        already_published: true,
        published_at: published.published_at,
      });
      expect(again.message).toMatch(/already published/);
      const settings = payload(await callTool(client, 'get_quiz_settings', { quiz_id: quiz.quiz_id }));
      expect(settings).toMatchObject({ status: 'published', public_url: `${app.baseUrl}/q/${quiz.slug}` });
    });

    test('publishing a quiz without questions fails and leaves it a draft', async () => {
      const quiz = payload(await callTool(client, 'create_quiz', { title: 'Empty one', questions: [] }));
      expect(errorText(await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id }))).toMatch(
        /no questions.*update_quiz/,
      );
      expect(payload(await callTool(client, 'get_quiz_settings', { quiz_id: quiz.quiz_id })).status).toBe(
        'draft',
      );
    });

    test('published + update_quiz without confirm_edit_published -> isError and no change', async () => {
      const quiz = payload(
        await callTool(client, 'create_quiz', { title: 'Lifecycle four', questions: sampleQuestions() }),
      );
      await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id });
      const before = payload(await callTool(client, 'get_quiz_settings', { quiz_id: quiz.quiz_id }));
      for (const confirm of [undefined, false]) {
        const text = errorText(
          await callTool(client, 'update_quiz', {
            quiz_id: quiz.quiz_id,
            questions: [{ type: 'yes_no', text: 'Sneaky edit', points: 1 }],
            title: 'Renamed',
            settings: { collect_email: true },
            ...(confirm === undefined ? {} : { confirm_edit_published: confirm }),
          }),
        );
        expect(text).toMatch(/published.*confirm_edit_published: true/s);
      }
      expect(await questionTexts(quiz.quiz_id)).toEqual(['Is the sky blue?', 'Capital of Italy?']);
      expect(payload(await callTool(client, 'get_quiz_settings', { quiz_id: quiz.quiz_id }))).toEqual(before);
    });

    test('published + update_quiz with confirm_edit_published: true -> published, questions replaced', async () => {
      const quiz = payload(
        await callTool(client, 'create_quiz', { title: 'Lifecycle five', questions: sampleQuestions() }),
      );
      await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id });
      const updated = payload(
        await callTool(client, 'update_quiz', {
          quiz_id: quiz.quiz_id,
          confirm_edit_published: true,
          questions: [{ type: 'yes_no', text: 'Edited after publishing', points: 4 }],
        }),
      );
      expect(updated.status).toBe('published');
      expect(await questionTexts(quiz.quiz_id)).toEqual(['Edited after publishing']);
      // A published quiz keeps at least one question.
      expect(
        errorText(
          await callTool(client, 'update_quiz', {
            quiz_id: quiz.quiz_id,
            confirm_edit_published: true,
            questions: [],
          }),
        ),
      ).toMatch(/at least one question/);
    });

    test.each(['draft', 'published'])(
      '%s + delete_quiz without confirm: true -> isError, nothing deleted',
      async (state) => {
        const quiz = payload(
          await callTool(client, 'create_quiz', { title: `Keep me ${state}`, questions: sampleQuestions() }),
        );
        if (state === 'published') await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id });
        for (const args of [{}, { confirm: false }]) {
          expect(
            errorText(await callTool(client, 'delete_quiz', { quiz_id: quiz.quiz_id, ...args })),
          ).toMatch(/confirm: true/);
        }
        expect(await questionTexts(quiz.quiz_id)).toHaveLength(2);
      },
    );

    test.each(['draft', 'published'])('%s + delete_quiz with confirm: true -> removed', async (state) => {
      const quiz = payload(
        await callTool(client, 'create_quiz', { title: `Remove me ${state}`, questions: sampleQuestions() }),
      );
      if (state === 'published') await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id });
      const deleted = payload(
        await callTool(client, 'delete_quiz', { quiz_id: quiz.quiz_id, confirm: true }),
      );
      expect(deleted).toMatchObject({
        quiz_id: quiz.quiz_id,
        deleted: true,
        deleted_questions: 2,
        deleted_responses: 0,
      });
      expect(errorText(await callTool(client, 'get_quiz_questions', { quiz_id: quiz.quiz_id }))).toMatch(
        /No quiz that you own matches/,
      );
      const listed = payload(await callTool(client, 'list_quizzes', { limit: 100 }));
      expect(listed.quizzes.map((q: { quiz_id: string }) => q.quiz_id)).not.toContain(quiz.quiz_id);
    });

    test('every tool accepts the quiz title, slug or ID', async () => {
      const quiz = payload(
        await callTool(client, 'create_quiz', {
          title: 'Reference Forms Quiz',
          questions: sampleQuestions(),
        }),
      );
      for (const ref of [quiz.quiz_id, quiz.slug, quiz.title, '  reference forms QUIZ  ']) {
        expect(payload(await callTool(client, 'get_quiz_questions', { quiz_id: ref })).quiz_id).toBe(
          quiz.quiz_id,
        );
        expect(payload(await callTool(client, 'get_quiz_settings', { quiz_id: ref })).quiz_id).toBe(
          quiz.quiz_id,
        );
        expect(payload(await callTool(client, 'get_results', { quiz_id: ref })).quiz.quiz_id).toBe(
          quiz.quiz_id,
        );
      }
      payload(await callTool(client, 'update_quiz', { quiz_id: quiz.slug, title: 'Reference Forms Quiz' }));
      payload(await callTool(client, 'publish_quiz', { quiz_id: 'Reference Forms Quiz' }));
      payload(await callTool(client, 'delete_quiz', { quiz_id: quiz.slug, confirm: true }));
    });

    test('rule 1: a title matching several quizzes -> isError naming each candidate', async () => {
      const a = payload(await callTool(client, 'create_quiz', { title: 'Twin Title', questions: [] }));
      const b = payload(await callTool(client, 'create_quiz', { title: 'twin title', questions: [] }));
      for (const tool of [
        'get_quiz_questions',
        'get_quiz_settings',
        'update_quiz',
        'publish_quiz',
        'get_results',
        'delete_quiz',
      ]) {
        const args =
          tool === 'update_quiz' ? { title: 'x' } : tool === 'delete_quiz' ? { confirm: true } : {};
        const text = errorText(await callTool(client, tool, { quiz_id: 'TWIN TITLE', ...args }));
        expect(text).toContain(a.quiz_id);
        expect(text).toContain(b.quiz_id);
        expect(text).toContain(a.slug);
        expect(text).toContain(b.slug);
      }
      // The exact title wins over case-insensitive matches; IDs and slugs always name one quiz.
      expect(payload(await callTool(client, 'get_quiz_questions', { quiz_id: 'Twin Title' })).quiz_id).toBe(
        a.quiz_id,
      );
      expect(payload(await callTool(client, 'get_quiz_questions', { quiz_id: b.slug })).quiz_id).toBe(
        b.quiz_id,
      );
      expect(await questionTexts(a.quiz_id)).toEqual([]);
    });

    test('rule 3: a multiple_choice question with fewer than 2 options -> isError, nothing created or changed', async () => {
      const before = payload(await callTool(client, 'list_quizzes', { limit: 100 })).quizzes.length;
      const bad = [{ type: 'multiple_choice', text: 'Pick one', options: [{ label: 'Only', score: 1 }] }];
      expect(
        errorText(await callTool(client, 'create_quiz', { title: 'Bad options', questions: bad })),
      ).toMatch(/questions\[0\]\.options: a multiple_choice question needs at least 2 options \(got 1\)/);
      expect(payload(await callTool(client, 'list_quizzes', { limit: 100 })).quizzes).toHaveLength(before);

      const quiz = payload(
        await callTool(client, 'create_quiz', { title: 'Good options', questions: sampleQuestions() }),
      );
      expect(
        errorText(
          await callTool(client, 'update_quiz', {
            quiz_id: quiz.quiz_id,
            questions: [
              { type: 'yes_no', text: 'fine', points: 1 },
              { type: 'multiple_choice', text: 'bad', options: [] },
            ],
          }),
        ),
      ).toMatch(/questions\[1\]\.options/);
      expect(await questionTexts(quiz.quiz_id)).toEqual(['Is the sky blue?', 'Capital of Italy?']);
    });

    test('settings are set on create, changed by update_quiz and shown by get_quiz_settings', async () => {
      const quiz = payload(
        await callTool(client, 'create_quiz', {
          title: 'Settings quiz',
          questions: sampleQuestions(),
          settings: { pass_mark_percent: 60, collect_email: true },
        }),
      );
      const settings = payload(await callTool(client, 'get_quiz_settings', { quiz_id: quiz.quiz_id }));
      expect(settings).toEqual({
        quiz_id: quiz.quiz_id,
        slug: expect.stringMatching(/^settings-quiz-[a-z0-9]{6}$/),
        title: 'Settings quiz',
        status: 'draft',
        published_at: null,
        public_url: null,
        accepting_responses: true,
        question_count: 2,
        max_score: 5,
        show_score_to_respondent: true,
        pass_mark_percent: 60,
        collect_name: true,
        collect_email: true,
        require_all_answers: true,
        show_correct_answers: 'never',
        allow_embedding: false,
        math_dollars: false,
        // How it is taken: the defaults keep a quiz as it always was; a draft is not open.
        is_open: false,
        time_limit_minutes: null,
        opens_at: null,
        closes_at: null,
        shuffle_questions: false,
        shuffle_options: false,
        question_pool_size: null,
        max_attempts_per_email: null,
        language: 'en',
        created_at: expect.any(String),
        updated_at: expect.any(String),
        webhook_endpoints: 0,
      });
      payload(
        await callTool(client, 'update_quiz', {
          quiz_id: quiz.quiz_id,
          settings: {
            pass_mark_percent: null,
            accepting_responses: false,
            require_all_answers: false,
            allow_embedding: true,
          },
        }),
      );
      expect(payload(await callTool(client, 'get_quiz_settings', { quiz_id: quiz.quiz_id }))).toMatchObject({
        allow_embedding: true,
        pass_mark_percent: null,
        accepting_responses: false,
        require_all_answers: false,
        collect_email: true,
      });
      expect(await questionTexts(quiz.quiz_id)).toHaveLength(2);
    });

    test('update_quiz renames without changing the slug; slugs stay unique across quizzes', async () => {
      const first = payload(await callTool(client, 'create_quiz', { title: 'Café Quiz!', questions: [] }));
      const second = payload(await callTool(client, 'create_quiz', { title: 'cafe quiz', questions: [] }));
      expect(first.slug).toMatch(/^cafe-quiz-[a-z0-9]{6}$/);
      expect(second.slug).toMatch(/^cafe-quiz-[a-z0-9]{6}$/);
      expect(second.slug).not.toBe(first.slug);
      const renamed = payload(
        await callTool(client, 'update_quiz', { quiz_id: first.quiz_id, title: 'Tea Quiz' }),
      );
      expect(renamed).toMatchObject({ title: 'Tea Quiz', slug: first.slug });
      expect(payload(await callTool(client, 'get_quiz_questions', { quiz_id: 'tea quiz' })).quiz_id).toBe(
        first.quiz_id,
      );
    });

    test('get_results on a quiz without responses', async () => {
      const quiz = payload(
        await callTool(client, 'create_quiz', { title: 'Nobody answered', questions: sampleQuestions() }),
      );
      const results = payload(await callTool(client, 'get_results', { quiz_id: quiz.quiz_id }));
      expect(results.summary).toEqual({
        response_count: 0,
        average_score: null,
        average_percent: null,
        highest_score: null,
        lowest_score: null,
        max_score: 5,
        pass_mark_percent: null,
        pass_count: 0,
        pass_rate: null,
        pass_percent: null,
        first_submitted_at: null,
        last_submitted_at: null,
        pending_count: 0,
      });
      expect(results.questions).toEqual([
        expect.objectContaining({
          type: 'yes_no',
          answered_count: 0,
          yes_count: 0,
          no_count: 0,
          average_points: null,
        }),
        expect.objectContaining({
          type: 'multiple_choice',
          answered_count: 0,
          options: [
            { label: 'Rome', score: 3, count: 0 },
            { label: 'Milan', score: 0, count: 0 },
            { label: 'Turin', score: -1, count: 0 },
          ],
        }),
      ]);
      expect(results.responses).toEqual([]);
      expect(results.next_cursor).toBeNull();
    });

    test('list_quizzes pages newest first with a cursor, without repeats or gaps', async () => {
      const other = await createTestUser(app, 'pager');
      const pager = await era.connect(app, other.apiKey);
      const ids: string[] = [];
      for (let i = 0; i < 7; i += 1) {
        ids.push(
          payload(await callTool(pager, 'create_quiz', { title: `Paged ${i}`, questions: [] })).quiz_id,
        );
      }
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = payload(
          await callTool(pager, 'list_quizzes', { limit: 3, ...(cursor ? { cursor } : {}) }),
        );
        seen.push(...page.quizzes.map((q: { quiz_id: string }) => q.quiz_id));
        cursor = page.next_cursor ?? undefined;
        pages += 1;
      } while (cursor);
      expect(pages).toBe(3);
      expect(seen).toEqual([...ids].reverse());
      expect(errorText(await callTool(pager, 'list_quizzes', { cursor: 'not-a-cursor' }))).toMatch(/cursor/);
      await pager.close();
    });
  });
});

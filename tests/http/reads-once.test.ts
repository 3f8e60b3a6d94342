// Load once: a submission (form and JSON), an MCP edit (update_quiz, edit_questions) and one save
// of the dashboard editor each read the quiz once and pass it on. A counting wrapper around the
// quizzes repository records every call the request makes; on both databases.
import request from 'supertest';
import type { QuizRepository } from '../../src/db/repositories';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';
import { createTestUser, describeEachDatabase, startTestApp, type TestApp } from '../helpers/test-app';
import { csrfFrom, logIn, newAgent, type Agent } from '../dashboard/dashboard-helpers';

/** Replaces the quizzes repository by one that logs each method called, in order. */
function countQuizCalls(database: TestDatabase): string[] {
  const calls: string[] = [];
  const inner = database.repos.quizzes;
  database.repos.quizzes = new Proxy(inner, {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(name));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  }) as QuizRepository;
  return calls;
}

describeEachDatabase('each request reads the quiz once', (provider) => {
  let database: TestDatabase;
  let app: TestApp;
  let client: AnyClient;
  let agent: Agent;
  let calls: string[];

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    calls = countQuizCalls(database);
    app = await startTestApp({ database });
    const owner = await createTestUser(app, 'reads');
    client = await connectClient(app, owner.apiKey);
    agent = newAgent(app);
    expect((await logIn(agent, owner.email, owner.password)).status).toBe(303);
  });
  afterAll(async () => {
    await client.close();
    await app.close();
    await database.drop();
  });

  const call = async (tool: string, args: Record<string, unknown>) =>
    payload(await callTool(client, tool, args));

  async function publishedQuiz() {
    const quiz = await call('create_quiz', {
      title: `Reads ${Math.random()}`,
      questions: [
        { type: 'yes_no', text: 'Is Rome in Italy?' },
        { type: 'number', text: 'How many regions?', correct_number: 20 },
      ],
    });
    await call('publish_quiz', { quiz_id: quiz.quiz_id });
    return quiz as { quiz_id: string; slug: string; questions: Array<{ question_id: string }> };
  }

  /** The quizzes repository's calls made by `act` alone. */
  async function callsOf(act: () => Promise<unknown>): Promise<string[]> {
    calls.length = 0;
    await act();
    return [...calls];
  }

  test('a JSON submission: one read by slug, nothing else of the quiz', async () => {
    const quiz = await publishedQuiz();
    const seen = await callsOf(async () => {
      const res = await request(app.app)
        .post(`/api/quizzes/${quiz.slug}/responses`)
        .send({
          respondent: { name: 'Ada' },
          answers: [
            { question_id: quiz.questions[0]!.question_id, answer: 'yes' },
            { question_id: quiz.questions[1]!.question_id, number: 20 },
          ],
        });
      expect(res.status).toBe(201);
    });
    expect(seen).toEqual(['bySlug']);
  });

  test('a form submission: one read by slug, nothing else of the quiz', async () => {
    const quiz = await publishedQuiz();
    const seen = await callsOf(async () => {
      const res = await request(app.app)
        .post(`/q/${quiz.slug}`)
        .type('form')
        .send({
          name: 'Ada',
          version: '1',
          [`q_${quiz.questions[0]!.question_id}`]: 'yes',
          [`q_${quiz.questions[1]!.question_id}`]: '20',
        });
      expect(res.status).toBe(303);
    });
    expect(seen).toEqual(['bySlug']);
  });

  test('update_quiz with settings and questions: one read, then the locked write', async () => {
    const quiz = await publishedQuiz();
    const seen = await callsOf(async () => {
      const updated = await call('update_quiz', {
        quiz_id: quiz.quiz_id,
        confirm_edit_published: true,
        settings: { time_limit_minutes: 10 },
        questions: [{ type: 'yes_no', text: 'Is Rome in Italy?' }],
      });
      expect(updated.question_count).toBe(1);
    });
    expect(seen).toEqual(['quizWithQuestions', 'update']);
  });

  test('edit_questions: the reference resolved once, the questions read under the write lock', async () => {
    const quiz = await publishedQuiz();
    const seen = await callsOf(async () => {
      const edited = await call('edit_questions', {
        quiz_id: quiz.quiz_id,
        confirm_edit_published: true,
        operations: [
          { op: 'update', question_id: quiz.questions[0]!.question_id, text: 'Is Milan in Italy?' },
        ],
      });
      expect(edited.version_raised).toBe(false);
    });
    expect(seen).toEqual(['quizCandidates', 'update']);
  });

  test('one save of the dashboard editor: one read, then the locked write', async () => {
    const quiz = await publishedQuiz();
    const page = await agent.get(`/dashboard/quizzes/${quiz.quiz_id}/edit`);
    expect(page.status).toBe(200);
    const seen = await callsOf(async () => {
      const res = await agent
        .post(`/dashboard/quizzes/${quiz.quiz_id}/edit`)
        .type('form')
        .send({
          _csrf: csrfFrom(page.text),
          _action: 'save',
          title: 'Saved once',
          confirm_edit_published: 'on',
          'questions[0][question_id]': quiz.questions[0]!.question_id,
          'questions[0][type]': 'yes_no',
          'questions[0][text]': 'Is Rome in Italy?',
          'questions[0][points]': '1',
          'questions[0][correct_answer]': 'yes',
        });
      expect(res.status).toBe(303);
    });
    expect(seen).toEqual(['quizWithQuestions', 'update']);
  });
});

// The quiz page's Preview and Duplicate buttons, through the dashboard's own forms: Preview makes
// the signed preview link (the one preview mechanism) for this session and sends the owner to it,
// where a draft shows as respondents will see it, marked as a preview; Duplicate makes a new draft
// with the questions and settings through the same domain function as duplicate_quiz.
import { createQuiz } from '../../src/domain/quizzes/create-quiz';
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';
import { csrfOf, logIn, newAgent, type Agent } from './dashboard-helpers';

let app: TestApp;
let agent: Agent;
let ownerId: string;

beforeAll(async () => {
  app = await startTestApp();
  const owner = await createTestUser(app, 'preview-duplicate');
  ownerId = owner.id;
  agent = newAgent(app);
  expect((await logIn(agent, owner.email, owner.password)).status).toBe(303);
});
afterAll(() => app.close());

async function draftQuiz(title: string) {
  return createQuiz(app.deps, ownerId, {
    title,
    questions: [
      { type: 'yes_no', text: 'Is the Sun a star?', correct_answer: 'yes', explanation: 'It is.' },
      {
        type: 'multiple_choice',
        text: 'Pick the planet',
        options: [
          { label: 'Mars', score: 1 },
          { label: 'Moon', score: 0 },
        ],
      },
    ],
    settings: { time_limit_minutes: 10 },
  });
}

test('Preview sends the owner to the signed preview link of a draft, which stores nothing', async () => {
  const quiz = await draftQuiz('Preview me');
  const page = await agent.get(`/dashboard/quizzes/${quiz.quiz_id}`);
  expect(page.text).toContain(`action="/dashboard/quizzes/${quiz.quiz_id}/preview" target="_blank"`);
  const token = await csrfOf(agent, `/dashboard/quizzes/${quiz.quiz_id}`);
  const res = await agent
    .post(`/dashboard/quizzes/${quiz.quiz_id}/preview`)
    .type('form')
    .send({ _csrf: token });
  expect(res.status).toBe(303);
  const location = String(res.headers.location);
  expect(location).toMatch(new RegExp(`^${app.baseUrl}/q/${quiz.slug}/preview\\?sig=`));
  const preview = await agent.get(location.slice(app.baseUrl.length));
  expect(preview.status).toBe(200);
  expect(preview.text).toContain('class="notice preview"');
  expect(preview.text).toContain('Is the Sun a star?');
  // Without the signature there is nothing: a draft has no public page.
  expect((await agent.get(`/q/${quiz.slug}/preview`)).status).not.toBe(200);
  expect(await app.database.prisma.response.count({ where: { quizId: quiz.quiz_id } })).toBe(0);
  // Without the form's CSRF token no link is made.
  expect((await agent.post(`/dashboard/quizzes/${quiz.quiz_id}/preview`).type('form').send({})).status).toBe(
    403,
  );
});

test('Duplicate makes a new draft with the questions and settings, and leads to it', async () => {
  const quiz = await draftQuiz('Class A quiz');
  const token = await csrfOf(agent, `/dashboard/quizzes/${quiz.quiz_id}`);
  const res = await agent
    .post(`/dashboard/quizzes/${quiz.quiz_id}/duplicate`)
    .type('form')
    .send({ _csrf: token });
  expect(res.status).toBe(303);
  const copyId = /\/dashboard\/quizzes\/([^/?#]+)$/.exec(String(res.headers.location))![1]!;
  expect(copyId).not.toBe(quiz.quiz_id);
  const copy = await app.database.prisma.quiz.findUnique({
    where: { id: copyId },
    include: { questions: { orderBy: { position: 'asc' } } },
  });
  expect(copy).toMatchObject({
    title: 'Class A quiz (copy)',
    status: 'draft',
    ownerId,
    timeLimitMinutes: 10,
  });
  expect(copy!.questions.map((q) => q.text)).toEqual(['Is the Sun a star?', 'Pick the planet']);
  const page = await agent.get(String(res.headers.location));
  expect(page.text).toContain('“Class A quiz (copy)” is a new draft with the 2 questions and settings');
});

// Webhooks end to end: submissions through the public form and the JSON API reach a receiver
// on 127.0.0.1, signed as Standard Webhooks has it; failing, hanging and redirecting receivers
// get the documented retries as the worker's clock moves; 410 disables; 5 days of failures
// disable; a restart between the commit and the delivery loses nothing and repeats nothing.
import request from 'supertest';
import { webhookWorkerOf } from '../../src/app';
import { createEndpoint, deliveryLog, getEndpoint, rotateSecret } from '../../src/domain/webhooks/endpoints';
import { RETRY_DELAYS_MS } from '../../src/domain/webhooks/schedule';
import { sealingKey } from '../../src/domain/webhooks/secrets';
import type { WebhookSettings } from '../../src/domain/webhooks/worker';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';
import {
  createTestUser,
  describeEachDatabase,
  startTestApp,
  type TestApp,
  type TestUser,
} from '../helpers/test-app';
import { createPublishedQuiz, sampleAnswers, sampleForm } from '../respondent/respondent-fixtures';
import { startReceiver, verifiedSignatures, type Receiver } from './receiver';

/** The worker's clock: real time plus what the test moved it by. */
function testClock() {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    advance: (ms: number) => {
      offset += ms;
    },
  };
}

const settingsOf = (app: TestApp): WebhookSettings => ({
  sealingKey: sealingKey(app.config.webhooks.secretKey, app.config.sessionSecret),
  allowLoopback: app.config.webhooks.allowLoopback,
});

describeEachDatabase('webhooks', (provider) => {
  let database: TestDatabase;
  let app: TestApp;
  let user: TestUser;
  let client: AnyClient;
  let receiver: Receiver;
  const clock = testClock();
  const loopback = { webhooks: { allowLoopback: true, secretKey: undefined } };

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    app = await startTestApp({
      database,
      config: loopback,
      webhookHooks: { now: clock.now, timeoutMs: 300 },
    });
    user = await createTestUser(app, 'hooks');
    client = await connectClient(app, user.apiKey);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await client.close();
    await receiver.close();
    await app.close();
    await database.drop();
  });
  beforeEach(() => {
    receiver.received.length = 0;
    receiver.answer = () => ({ status: 200, body: 'ok' });
  });

  const worker = () => webhookWorkerOf(app.app);
  const addEndpoint = (url: string, events = ['response.submitted'], quizIds: string[] | null = null) =>
    createEndpoint(app.deps.repos, settingsOf(app), user.id, { url, events, quizIds });

  test('form and JSON submissions arrive as response.submitted, each signed under the secret shown once', async () => {
    const quiz = await createPublishedQuiz(client, 'Hooked quiz', { settings: { pass_mark_percent: 50 } });
    const { endpoint, secret } = await addEndpoint(receiver.url, ['response.submitted'], [quiz.quiz_id]);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);

    const form = await request(app.app)
      .post(`/q/${quiz.slug}`)
      .type('form')
      .send(sampleForm(quiz, { yes: 'yes', option: '0', name: 'Form Person' }));
    expect(form.status).toBe(303);
    const json = await request(app.app)
      .post(`/api/quizzes/${quiz.slug}/responses`)
      .send({ respondent: { name: 'Json Person' }, answers: sampleAnswers(quiz, 'no', 1) });
    expect(json.status).toBe(201);

    expect(await worker().runOnce()).toBe(2);
    expect(receiver.received).toHaveLength(2);
    const byName = Object.fromEntries(receiver.received.map((r) => [r.json.data.respondent.name, r]));
    for (const received of receiver.received) {
      expect(verifiedSignatures(received, secret)).toBe(1);
      expect(received.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
      expect(received.headers['content-type']).toBe('application/json');
      expect(received.json.type).toBe('response.submitted');
      expect(Number(received.headers['webhook-timestamp'])).toBeCloseTo(clock.now().getTime() / 1000, -1);
      expect(Buffer.byteLength(received.body)).toBeLessThan(20_000);
    }
    // A signature under another secret does not verify.
    expect(verifiedSignatures(receiver.received[0]!, `whsec_${Buffer.alloc(24, 7).toString('base64')}`)).toBe(
      0,
    );
    expect(byName['Form Person']!.json.data).toMatchObject({
      quiz: { quiz_id: quiz.quiz_id, slug: quiz.slug, title: 'Hooked quiz' },
      score: 5,
      max_score: 5,
      percent: 100,
      passed: true,
    });
    expect(byName['Form Person']!.json.data.answers).toHaveLength(2);
    expect(byName['Form Person']!.json.data.answers[1]).toMatchObject({
      question_text: 'Capital of Italy?',
      option_index: 0,
      option_label: 'Rome',
      points: 3,
      max_points: 3,
    });
    expect(byName['Json Person']!.json.data).toMatchObject({ score: 0, passed: false });
    expect(byName['Json Person']!.json.data.response_id).toBe(json.body.response_id);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(2);

    // Delivered once: another round sends nothing.
    expect(await worker().runOnce()).toBe(0);
    const log = await deliveryLog(app.deps.repos, user.id, endpoint.id);
    expect(log.map((attempt) => [attempt.outcome, attempt.status])).toEqual([
      ['success', 200],
      ['success', 200],
    ]);
    expect(log[0]!.responseSnippet).toBe('ok');

    const metrics = await request(app.app).get('/metrics');
    expect(metrics.text).toMatch(/webhook_deliveries_total\{outcome="success"\} 2/);
  });

  test('only subscribed events of chosen quizzes are written; publish, close and delete events arrive', async () => {
    const other = await createPublishedQuiz(client, 'Not chosen');
    const draft = await createPublishedQuiz(client, 'Life cycle', { publish: false });
    await addEndpoint(
      receiver.url,
      ['quiz.published', 'quiz.closed', 'quiz.deleted', 'response.deleted'],
      [draft.quiz_id],
    );
    await request(app.app)
      .post(`/api/quizzes/${other.slug}/responses`)
      .send({ respondent: { name: 'R' }, answers: sampleAnswers(other) })
      .expect(201);
    await callTool(client, 'publish_quiz', { quiz_id: draft.quiz_id });
    payload(
      await callTool(client, 'update_quiz', {
        quiz_id: draft.quiz_id,
        settings: { accepting_responses: false },
        confirm_edit_published: true,
      }),
    );
    await callTool(client, 'delete_quiz', { quiz_id: draft.quiz_id, confirm: true });
    await worker().runOnce();
    const types = receiver.received.map((r) => r.json.type).sort();
    expect(types).toEqual(['quiz.closed', 'quiz.deleted', 'quiz.published']);
    const closed = receiver.received.find((r) => r.json.type === 'quiz.closed')!;
    expect(closed.json.data).toMatchObject({ quiz: { quiz_id: draft.quiz_id }, reason: 'owner' });
  });

  test('a failing receiver gets the documented retries as the clock moves, then the delivery fails', async () => {
    const failing = await startReceiver();
    failing.answer = () => ({ status: 500, body: 'broken' });
    try {
      const quiz = await createPublishedQuiz(client, 'Retries');
      const { endpoint } = await addEndpoint(failing.url, ['response.submitted'], [quiz.quiz_id]);
      await request(app.app)
        .post(`/api/quizzes/${quiz.slug}/responses`)
        .send({ respondent: { name: 'R' }, answers: sampleAnswers(quiz) })
        .expect(201);
      expect(await worker().runOnce()).toBe(1);
      for (const delay of RETRY_DELAYS_MS.slice(1)) {
        clock.advance(delay - 1_000);
        expect(await worker().runOnce()).toBe(0); // not due yet
        clock.advance(1_000);
        expect(await worker().runOnce()).toBe(1);
      }
      clock.advance(24 * 3_600_000);
      expect(await worker().runOnce()).toBe(0);
      expect(failing.received).toHaveLength(8);
      expect(new Set(failing.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
      const log = await deliveryLog(app.deps.repos, user.id, endpoint.id);
      expect(log.map((attempt) => attempt.outcome)).toEqual(Array(8).fill('http_error'));
      expect(log[0]!.responseSnippet).toBe('broken');
      expect((await getEndpoint(app.deps.repos, user.id, endpoint.id)).failingSince).not.toBeNull();
    } finally {
      await failing.close();
    }
  });

  test('a receiver that hangs times out and one that redirects is not followed; both are retried', async () => {
    const target = await startReceiver();
    const odd = await startReceiver();
    try {
      const quiz = await createPublishedQuiz(client, 'Odd receivers');
      const { endpoint } = await addEndpoint(odd.url, ['response.submitted'], [quiz.quiz_id]);
      odd.answer = () => 'hang';
      await request(app.app)
        .post(`/api/quizzes/${quiz.slug}/responses`)
        .send({ respondent: { name: 'R' }, answers: sampleAnswers(quiz) })
        .expect(201);
      expect(await worker().runOnce()).toBe(1);
      odd.answer = () => ({ status: 302, headers: { location: target.url } });
      clock.advance(5_000);
      expect(await worker().runOnce()).toBe(1);
      odd.answer = () => ({ status: 204 });
      clock.advance(5 * 60_000);
      expect(await worker().runOnce()).toBe(1);
      expect(target.received).toHaveLength(0);
      const log = await deliveryLog(app.deps.repos, user.id, endpoint.id);
      expect(log.map((attempt) => [attempt.outcome, attempt.status])).toEqual([
        ['success', 204],
        ['redirect', 302],
        ['timeout', null],
      ]);
      // Success clears the failing time.
      expect((await getEndpoint(app.deps.repos, user.id, endpoint.id)).failingSince).toBeNull();
    } finally {
      await target.close();
      await odd.close();
    }
  });

  test('410 Gone disables the endpoint at once; no more events are written for it', async () => {
    const gone = await startReceiver();
    gone.answer = () => ({ status: 410, body: 'gone' });
    try {
      const quiz = await createPublishedQuiz(client, 'Gone receiver');
      const { endpoint } = await addEndpoint(gone.url, ['response.submitted'], [quiz.quiz_id]);
      const submit = () =>
        request(app.app)
          .post(`/api/quizzes/${quiz.slug}/responses`)
          .send({ respondent: { name: 'R' }, answers: sampleAnswers(quiz) })
          .expect(201);
      await submit();
      expect(await worker().runOnce()).toBe(1);
      const disabled = await getEndpoint(app.deps.repos, user.id, endpoint.id);
      expect(disabled.disabledAt).not.toBeNull();
      expect(disabled.disabledReason).toMatch(/410 Gone/);
      await submit();
      clock.advance(24 * 3_600_000);
      expect(await worker().runOnce()).toBe(0);
      expect(gone.received).toHaveLength(1);
    } finally {
      await gone.close();
    }
  });

  test('an endpoint failing for 5 days is disabled', async () => {
    const down = await startReceiver();
    down.answer = () => ({ status: 503 });
    try {
      const quiz = await createPublishedQuiz(client, 'Down for days');
      const { endpoint } = await addEndpoint(down.url, ['response.submitted'], [quiz.quiz_id]);
      const submit = () =>
        request(app.app)
          .post(`/api/quizzes/${quiz.slug}/responses`)
          .send({ respondent: { name: 'R' }, answers: sampleAnswers(quiz) })
          .expect(201);
      await submit();
      await worker().runOnce();
      clock.advance(4 * 24 * 3_600_000);
      await submit();
      await worker().runOnce();
      expect((await getEndpoint(app.deps.repos, user.id, endpoint.id)).disabledAt).toBeNull();
      clock.advance(24 * 3_600_000);
      await submit();
      await worker().runOnce();
      const disabled = await getEndpoint(app.deps.repos, user.id, endpoint.id);
      expect(disabled.disabledAt).not.toBeNull();
      expect(disabled.disabledReason).toMatch(/5 days/);
    } finally {
      await down.close();
    }
  });

  test('rotation: for 24 hours each delivery carries a signature under the old and the new secret', async () => {
    const quiz = await createPublishedQuiz(client, 'Rotation');
    const { endpoint, secret: first } = await addEndpoint(
      receiver.url,
      ['response.submitted'],
      [quiz.quiz_id],
    );
    const second = await rotateSecret(app.deps.repos, settingsOf(app), user.id, endpoint.id, clock.now());
    expect(second).not.toBe(first);
    const submit = () =>
      request(app.app)
        .post(`/api/quizzes/${quiz.slug}/responses`)
        .send({ respondent: { name: 'R' }, answers: sampleAnswers(quiz) })
        .expect(201);
    await submit();
    await worker().runOnce();
    clock.advance(23 * 3_600_000);
    await submit();
    await worker().runOnce();
    for (const received of receiver.received) {
      expect(String(received.headers['webhook-signature']).split(' ')).toHaveLength(2);
      expect(verifiedSignatures(received, first)).toBe(1);
      expect(verifiedSignatures(received, second)).toBe(1);
    }
    clock.advance(3_600_000 + 1_000);
    await submit();
    await worker().runOnce();
    const last = receiver.received[2]!;
    expect(String(last.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verifiedSignatures(last, second)).toBe(1);
    expect(verifiedSignatures(last, first)).toBe(0);
  });

  test('stopped between the commit and the delivery: another instance delivers it exactly once', async () => {
    const quiz = await createPublishedQuiz(client, 'Crash');
    await addEndpoint(receiver.url, ['response.submitted'], [quiz.quiz_id]);
    // The first instance commits the response and its event, then stops before any delivery.
    const first = await startTestApp({
      database: { ...database, drop: async () => undefined },
      config: loopback,
    });
    await request(first.app)
      .post(`/api/quizzes/${quiz.slug}/responses`)
      .send({ respondent: { name: 'R' }, answers: sampleAnswers(quiz) })
      .expect(201);
    await first.close();
    expect(receiver.received).toHaveLength(0);
    // A delivery claimed by an instance that then died comes back once its lease runs out.
    const held = await app.database.repos.webhooks.claimDue(clock.now(), 10, 'dead-instance', 60_000);
    expect(held).toHaveLength(1);
    expect(await worker().runOnce()).toBe(0);
    clock.advance(61_000);
    // Started again (a new instance over the same database): delivered once.
    const again = await startTestApp({
      database: { ...database, drop: async () => undefined },
      config: loopback,
      webhookHooks: { now: clock.now },
    });
    try {
      expect(await webhookWorkerOf(again.app).runOnce()).toBe(1);
      expect(await webhookWorkerOf(again.app).runOnce()).toBe(0);
      expect(await worker().runOnce()).toBe(0);
      expect(receiver.received).toHaveLength(1);
      expect(receiver.received[0]!.json.type).toBe('response.submitted');
    } finally {
      await again.close();
    }
  });
});

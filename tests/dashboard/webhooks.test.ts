// Settings > Webhooks, through the dashboard's own forms: add an endpoint (the secret shown
// once), refused URLs, CSRF, the limit of 10, a test event answered at once, the delivery log
// with replay, rotation, the disabled state and enabling again, deletion.
import { webhookWorkerOf } from '../../src/app';
import { createLogger } from '../../src/logger';
import { memoryLog } from '../helpers/memory-log';
import { raisedLimits, startTestApp, type TestApp } from '../helpers/test-app';
import { startReceiver, verifiedSignatures, type Receiver } from '../webhooks/receiver';
import { csrfFrom, errorSummaryText, newAgent, signUp, squash, type Agent } from './dashboard-helpers';

const PATH = '/settings/webhooks';
const SECRET = /whsec_[A-Za-z0-9+/]{32}/;

let app: TestApp;
let receiver: Receiver;
// Everything the service logs, at its most detailed level: no secret may appear in it.
const log = memoryLog();
beforeAll(async () => {
  app = await startTestApp({
    logger: createLogger('trace', log.stream),
    config: { ...raisedLimits(), webhooks: { allowLoopback: true, secretKey: undefined } },
  });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await app.close();
});
beforeEach(() => {
  receiver.received.length = 0;
  receiver.answer = () => ({ status: 200, body: 'thanks, receiver here' });
});

async function loggedIn(): Promise<Agent> {
  const agent = newAgent(app);
  await signUp(agent);
  return agent;
}

async function add(agent: Agent, fields: Record<string, string | string[]>) {
  const token = csrfFrom((await agent.get(PATH)).text);
  return agent
    .post(PATH)
    .type('form')
    .send({ _csrf: token, ...fields });
}

async function postOn(agent: Agent, page: string, action: string) {
  const token = csrfFrom((await agent.get(page)).text);
  return agent.post(action).type('form').send({ _csrf: token });
}

test('needs a login', async () => {
  const res = await newAgent(app).get(PATH);
  expect(res.status).toBe(303);
});

test('adding an endpoint shows its secret once; the test event shows the receiver’s answer at once', async () => {
  const agent = await loggedIn();
  const created = await add(agent, {
    url: receiver.url,
    events: ['response.submitted', 'quiz.published'],
    scope: 'all',
  });
  expect(created.status).toBe(303);
  const page = await agent.get(created.headers.location as string);
  const secret = SECRET.exec(page.text)?.[0];
  expect(secret).toBeDefined();
  expect(squash(page.text)).toContain('response.submitted, quiz.published');
  expect(squash(page.text)).toContain('All quizzes');
  // Shown once: the same page again has no secret, and neither has the list.
  expect((await agent.get(created.headers.location as string)).text).not.toMatch(SECRET);
  expect((await agent.get(PATH)).text).not.toMatch(SECRET);
  expect(squash((await agent.get(PATH)).text)).toContain('1 of 10 endpoints in use.');

  const tested = await postOn(agent, created.headers.location as string, `${created.headers.location}/test`);
  expect(tested.status).toBe(303);
  const after = squash((await agent.get(created.headers.location as string)).text);
  expect(after).toMatch(/Test event: delivered, 200 in \d+ ms/);
  expect(after).toContain('thanks, receiver here');
  expect(receiver.received).toHaveLength(1);
  expect(receiver.received[0]!.json.type).toBe('webhook.test');
  expect(verifiedSignatures(receiver.received[0]!, secret!)).toBe(1);
  // The delivery log: time, outcome and status, latency, the answer's first bytes, and replay.
  expect(after).toMatch(
    /<code>webhook\.test<\/code> ?<\/td><td data-label="Outcome" ?> ?success \(200\) ?<\/td><td data-label="Latency" class="num"> ?\d+ ms ?<\/td>/,
  );
  const replay = /action="([^"]+\/replay)"/.exec(after)![1]!;
  expect((await postOn(agent, created.headers.location as string, replay)).status).toBe(303);
  await webhookWorkerOf(app.app).runOnce();
  expect(receiver.received).toHaveLength(2);
  expect(receiver.received[1]!.headers['webhook-id']).toBe(receiver.received[0]!.headers['webhook-id']);

  // Neither the secret nor a signature made with it is in any log line.
  const logged = JSON.stringify(log.lines());
  expect(log.lines().length).toBeGreaterThan(5);
  expect(logged).not.toContain(secret!);
  expect(logged).not.toContain(secret!.slice('whsec_'.length));
  expect(logged).not.toContain(String(receiver.received[0]!.headers['webhook-signature']).slice(3));
});

test('refused URLs and missing choices come back with the form as typed, and nothing is saved', async () => {
  const agent = await loggedIn();
  const refused = await add(agent, {
    url: 'https://10.0.0.8/hook',
    events: 'response.submitted',
    scope: 'all',
  });
  expect(refused.status).toBe(422);
  expect(errorSummaryText(refused.text)).toMatch(/10\.0\.0\.8, which is not a public address/);
  expect(refused.text).toContain('value="https://10.0.0.8/hook"');
  const empty = await add(agent, { url: receiver.url, scope: 'chosen' });
  expect(errorSummaryText(empty.text)).toMatch(/Choose at least one event/);
  expect(errorSummaryText(empty.text)).toMatch(/Tick at least one quiz/);
  expect(squash((await agent.get(PATH)).text)).toContain('You have no webhook endpoints.');
  // Without the form token nothing happens.
  const forged = await agent.post(PATH).type('form').send({ url: receiver.url, events: 'quiz.published' });
  expect(forged.status).toBe(403);
});

test('at most 10 endpoints per account', async () => {
  const agent = await loggedIn();
  for (let i = 0; i < 10; i += 1) {
    expect(
      (await add(agent, { url: `${receiver.url}?n=${i}`, events: 'quiz.published', scope: 'all' })).status,
    ).toBe(303);
  }
  const eleventh = await add(agent, { url: receiver.url, events: 'quiz.published', scope: 'all' });
  expect(eleventh.status).toBe(409);
  expect(errorSummaryText(eleventh.text)).toMatch(/at most 10 webhook endpoints/);
});

test('rotation shows the new secret once; a 410 disables the endpoint, shown with its reason, until enabled again; delete', async () => {
  const agent = await loggedIn();
  const created = await add(agent, { url: receiver.url, events: 'response.submitted', scope: 'all' });
  const page = created.headers.location as string;
  const first = SECRET.exec((await agent.get(page)).text)![0];
  await postOn(agent, page, `${page}/rotate`);
  const rotated = await agent.get(page);
  const second = SECRET.exec(rotated.text)![0];
  expect(second).not.toBe(first);
  expect(squash(rotated.text)).toContain('the previous secret also signs until');

  receiver.answer = () => ({ status: 410, body: 'gone for good' });
  await postOn(agent, page, `${page}/test`);
  const disabled = squash((await agent.get(page)).text);
  expect(disabled).toContain('Test event: not delivered (gone, 410)');
  expect(disabled).toMatch(/<strong>Disabled<\/strong> since .*410 Gone/);
  expect(squash((await agent.get(PATH)).text)).toContain('<strong>Disabled</strong>');
  expect(verifiedSignatures(receiver.received[0]!, first)).toBe(1);
  expect(verifiedSignatures(receiver.received[0]!, second)).toBe(1);

  await postOn(agent, page, `${page}/enable`);
  expect(squash((await agent.get(page)).text)).toContain('<dd>Active</dd>');
  const deleted = await postOn(agent, page, `${page}/delete`);
  expect(deleted.headers.location).toBe(PATH);
  expect((await agent.get(page)).status).toBe(404);
});

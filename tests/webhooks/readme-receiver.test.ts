// The README's receiver example, run as it is written (node, with the standardwebhooks package),
// gets a response.submitted from the service and refuses a forged one; the API reference and
// /openapi.json list the same events.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import request from 'supertest';
import { webhookWorkerOf } from '../../src/app';
import { createEndpoint } from '../../src/domain/webhooks/endpoints';
import { WEBHOOK_EVENT_TYPES } from '../../src/domain/webhooks/events';
import { sealingKey } from '../../src/domain/webhooks/secrets';
import { eventually } from '../helpers/eventually';
import { connectClient } from '../helpers/mcp-clients';
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';
import { createPublishedQuiz, sampleAnswers } from '../respondent/respondent-fixtures';

const ROOT = path.resolve(__dirname, '..', '..');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const receiverCode = /```js webhook-receiver\n([\s\S]*?)```/.exec(README)?.[1];

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('the README receiver', () => {
  let app: TestApp;
  let child: ChildProcess | undefined;
  beforeAll(async () => {
    app = await startTestApp({ config: { webhooks: { allowLoopback: true, secretKey: undefined } } });
  });
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill();
      await exited;
    }
    await app.close();
  });

  test('verifies a real delivery with standardwebhooks and refuses a forged one', async () => {
    expect(receiverCode).toContain("require('standardwebhooks')");
    const user = await createTestUser(app, 'readme');
    const client = await connectClient(app, user.apiKey);
    const quiz = await createPublishedQuiz(client, 'README receiver');
    await client.close();
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/`;
    const { secret } = await createEndpoint(
      app.deps.repos,
      {
        sealingKey: sealingKey(app.config.webhooks.secretKey, app.config.sessionSecret),
        allowLoopback: true,
      },
      user.id,
      { url, events: ['response.submitted'], quizIds: [quiz.quiz_id] },
    );
    let output = '';
    child = spawn(process.execPath, ['-e', receiverCode!], {
      cwd: ROOT,
      env: { ...process.env, WEBHOOK_SECRET: secret, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    // Listening once a connection is accepted.
    await eventually(
      () =>
        new Promise<boolean>((resolve) => {
          const socket = net.connect(port, '127.0.0.1', () => resolve(socket.end() && true));
          socket.on('error', () => resolve(false));
        }),
    );

    const forged = await fetch(url, {
      method: 'POST',
      headers: {
        'webhook-id': 'msg_x',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': 'v1,AAAA',
      },
      body: '{"type":"response.submitted","timestamp":"2026-01-01T00:00:00Z","data":{}}',
    });
    expect(forged.status).toBe(400);

    await request(app.app)
      .post(`/api/quizzes/${quiz.slug}/responses`)
      .send({ respondent: { name: 'Reader' }, answers: sampleAnswers(quiz) })
      .expect(201);
    expect(await webhookWorkerOf(app.app).runOnce()).toBe(1);
    const line = await eventually(() => output, { until: (text) => text.includes('\n') });
    expect(line).toMatch(/^response\.submitted \{.*"respondent":\{"name":"Reader"/);
  });

  test('the API reference and /openapi.json list every event', async () => {
    const reference = await request(app.app).get('/en/docs/api-reference');
    const openapi = await request(app.app).get('/openapi.json');
    expect(Object.keys(openapi.body.webhooks)).toEqual(WEBHOOK_EVENT_TYPES);
    for (const type of WEBHOOK_EVENT_TYPES) expect(reference.text).toContain(`id="event-${type}"`);
    expect(reference.text).toContain('5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h');
  });
});

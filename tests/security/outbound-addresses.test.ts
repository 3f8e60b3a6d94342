// One address rule for every request this service sends to a URL someone else chose: IPv6
// forms that embed, translate or tunnel to internal IPv4 addresses, site-local and documentation
// ranges are refused, as literals and as a name's AAAA answer, when a webhook endpoint is saved,
// at each delivery, and when an OAuth Client ID Metadata Document is fetched.
import { webhookWorkerOf } from '../../src/app';
import { createLogger } from '../../src/logger';
import { memoryLog } from '../helpers/memory-log';
import { createQuiz } from '../../src/domain/quizzes/create-quiz';
import { publishQuiz } from '../../src/domain/quizzes/publish-quiz';
import type { Resolver } from '../../src/domain/outbound-address';
import { isPublicAddress } from '../../src/domain/outbound-address';
import {
  csrfFrom,
  errorSummaryText,
  logIn,
  newAgent,
  squash,
  type Agent,
} from '../dashboard/dashboard-helpers';
import { createTestUser, startTestApp, type TestApp, type TestUser } from '../helpers/test-app';
import {
  authorizationParams,
  authorizePath,
  loggedInAgent,
  LOOPBACK_REDIRECT,
  startOAuthTestApp,
} from '../oauth/oauth-helpers';

/** Each reaches loopback, a private network or the cloud metadata service, or is not global. */
const REFUSED = [
  '::127.0.0.1', // IPv4-compatible loopback
  '::ffff:0:7f00:1', // IPv4-translated 127.0.0.1
  '64:ff9b:1::a00:1', // local-use NAT64 around 10.0.0.1
  '2002:a00:1::1', // 6to4 around 10.0.0.1
  '2002:7f00:1::1', // 6to4 around 127.0.0.1
  'fec0::1', // site-local
  '2002:a9fe:a9fe::', // 6to4 around 169.254.169.254
  '64:ff9b:1::a9fe:a9fe', // NAT64 around 169.254.169.254
  '3fff::1', // documentation
];
const PUBLIC = '93.184.216.34';

/** `v6-N.example` answers REFUSED[N] alone; `moving.example` answers whatever `moving` holds. */
let moving = PUBLIC;
const resolver: Resolver = async (host) => {
  const indexed = /^v6-(\d+)\.example$/.exec(host);
  const address = indexed ? REFUSED[Number(indexed[1])] : host === 'moving.example' ? moving : undefined;
  if (!address) throw new Error('ENOTFOUND');
  return [{ address, family: address.includes(':') ? 6 : 4 }];
};

test.each(REFUSED)('%s is not a public address', (address) => {
  expect(isPublicAddress(address)).toBe(false);
});

test.each(['93.184.216.34', '2606:4700:4700::1111', '2a00:1450:4001::200e'])('%s stays public', (address) => {
  expect(isPublicAddress(address)).toBe(true);
});

describe('webhook endpoints, production rules', () => {
  let app: TestApp;
  let user: TestUser;
  let agent: Agent;
  const PATH = '/settings/webhooks';

  beforeAll(async () => {
    app = await startTestApp({ webhookHooks: { resolve: resolver, timeoutMs: 500 } });
    expect(app.config.webhooks.allowLoopback).toBe(false);
    user = await createTestUser(app, 'outbound');
    agent = newAgent(app);
    expect((await logIn(agent, user.email, user.password)).status).toBe(303);
  });
  afterAll(async () => {
    await app.close();
  });

  async function add(url: string) {
    const token = csrfFrom((await agent.get(PATH)).text);
    return agent.post(PATH).type('form').send({ _csrf: token, url, events: 'quiz.published', scope: 'all' });
  }

  test.each(REFUSED.map((address, index) => [address, index]))(
    'saving https://[%s]/ or a name whose AAAA is it is refused, and nothing is saved',
    async (address, index) => {
      for (const url of [`https://[${address}]/hook`, `https://v6-${index}.example/hook`]) {
        const res = await add(url);
        expect(res.status).toBe(422);
        expect(errorSummaryText(res.text)).toMatch(/which is not a public address/);
      }
      expect(await app.deps.repos.webhooks.endpoints(user.id)).toEqual([]);
    },
  );

  test('each delivery checks again: a name whose AAAA moved to one of them is not contacted', async () => {
    moving = PUBLIC;
    const saved = await add('https://moving.example/hook');
    expect(saved.status).toBe(303);
    const endpointPage = saved.headers.location as string;
    for (const [index, address] of REFUSED.entries()) {
      moving = address;
      const quiz = await createQuiz(app.deps, user.id, {
        title: `Moved ${index}`,
        questions: [{ type: 'yes_no', text: 'Moved?', points: 1 }],
      });
      await publishQuiz(app.deps, user.id, quiz.quiz_id);
      await webhookWorkerOf(app.app).runOnce();
      const page = squash((await agent.get(endpointPage)).text);
      expect(page.match(/refused address/g)).toHaveLength(index + 1);
      expect(page).toContain(`which is not a public address`);
    }
  });
});

describe('OAuth client metadata documents', () => {
  let app: TestApp;
  const log = memoryLog();
  beforeAll(async () => {
    app = await startOAuthTestApp({
      logger: createLogger('warn', log.stream),
      oauthTestHooks: { clientMetadataFetch: { resolve: resolver } },
    });
  });
  afterAll(async () => {
    await app.close();
  });

  test.each(REFUSED.map((address, index) => [address, index]))(
    'https://[%s]/ and a name whose AAAA is it are never fetched',
    async (address, index) => {
      const { agent } = await loggedInAgent(app);
      for (const url of [
        new URL(`https://[${address}]/client.json`).href,
        `https://v6-${index}.example/client.json`,
      ]) {
        const res = await agent.get(
          authorizePath(authorizationParams({ clientId: url, redirectUri: LOOPBACK_REDIRECT }).params),
        );
        expect(res.status).toBe(400);
        expect(res.text).toContain('could not be fetched');
        // Refused by the address rule, before any connection (not a connection that failed).
        const logged = log.lines().filter((line) => line.clientId === url);
        expect(logged.map((line) => line.reason)).toEqual([expect.stringMatching(/non-public address/)]);
      }
    },
  );
});

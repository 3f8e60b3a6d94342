// Login throttling per account and per client address, through the real form, and the
// in-memory limiter's rules with a fake clock.
import { createInMemoryLimiter } from '../../src/dashboard/attempt-limiter';
import { addressKey } from '../../src/http/rate-limit';
import { startTestApp, type TestApp } from '../helpers/test-app';
import {
  csrfOf,
  errorSummaryText,
  logIn,
  newAgent,
  PASSWORD,
  signUp,
  squash,
  uniqueEmail,
} from './dashboard-helpers';

describe('login throttle through the form', () => {
  // A fresh app per test: every request comes from 127.0.0.1, so tests would otherwise
  // share (and exhaust) the per-address count. The throttles run on a clock the test moves.
  let app: TestApp;
  let clock: number;
  beforeEach(async () => {
    clock = Date.parse('2026-11-25T10:00:00Z');
    app = await startTestApp({ now: () => clock });
  });
  afterEach(async () => {
    await app.close();
  });

  test('after 5 wrong passwords each attempt waits longer (1 s, 2 s, 4 s...), and the owner still gets in', async () => {
    const { email } = await signUp(newAgent(app));
    for (let i = 0; i < 5; i += 1)
      expect((await logIn(newAgent(app), email, `wrong-${i}-password`)).status).toBe(422);
    const early = await logIn(newAgent(app), email, PASSWORD);
    expect(early.status).toBe(429);
    expect(early.headers['retry-after']).toBe('1');
    expect(early.text).toMatch(/too many attempts/i);
    expect(squash(early.text)).toContain('wait a second');
    expect(early.headers['set-cookie']?.toString() ?? '').not.toContain('quiz_session=');

    clock += 1_000;
    expect((await logIn(newAgent(app), email, 'wrong-again-password')).status).toBe(422);
    const next = await logIn(newAgent(app), email, PASSWORD);
    expect(next.status).toBe(429);
    expect(next.headers['retry-after']).toBe('2');
    clock += 2_000;
    expect((await logIn(newAgent(app), email, 'wrong-once-more')).status).toBe(422);
    expect((await logIn(newAgent(app), email, PASSWORD)).headers['retry-after']).toBe('4');

    // Never a lock-out: once the wait is over, the right password logs in.
    clock += 4_000;
    expect((await logIn(newAgent(app), email, PASSWORD)).status).toBe(303);
    // Another account from the same address was never affected.
    const other = await signUp(newAgent(app));
    expect((await logIn(newAgent(app), other.email, PASSWORD)).status).toBe(303);
  });

  test('the wait stops growing at the configured ceiling (LOGIN_MAX_DELAY_S)', async () => {
    const { email } = await signUp(newAgent(app));
    let wait = 0;
    for (let i = 0; i < 14; i += 1) {
      const res = await logIn(newAgent(app), email, `wrong-${i}-password`);
      if (res.status === 429) {
        wait = Number(res.headers['retry-after']);
        clock += wait * 1_000;
        i -= 1;
      }
    }
    expect(wait).toBe(app.config.limits.loginDelay.maxDelaySeconds);
  });

  test('failures are forgotten an hour after the last attempt', async () => {
    const { email } = await signUp(newAgent(app));
    for (let i = 0; i < 5; i += 1) await logIn(newAgent(app), email, `wrong-${i}-password`);
    expect((await logIn(newAgent(app), email, PASSWORD)).status).toBe(429);
    clock += 60 * 60 * 1_000;
    for (let i = 0; i < 5; i += 1)
      expect((await logIn(newAgent(app), email, `wrong-${i}-password`)).status).toBe(422);
  });

  test('an unknown email is throttled exactly like a real one (no way to tell them apart)', async () => {
    const nobody = uniqueEmail('nobody');
    for (let i = 0; i < 5; i += 1)
      expect((await logIn(newAgent(app), nobody, 'wrong password!')).status).toBe(422);
    expect((await logIn(newAgent(app), nobody, 'wrong password!')).status).toBe(429);
  });

  test('the account key ignores case and spaces in the email', async () => {
    const { email } = await signUp(newAgent(app));
    const variants = [email, email.toUpperCase(), ` ${email}`, email, email.toUpperCase()];
    for (const variant of variants)
      expect((await logIn(newAgent(app), variant, 'wrong password!')).status).toBe(422);
    expect((await logIn(newAgent(app), email, PASSWORD)).status).toBe(429);
  });

  test('a successful login clears the count for the account', async () => {
    const { email } = await signUp(newAgent(app));
    for (let i = 0; i < 4; i += 1) await logIn(newAgent(app), email, 'wrong password!');
    expect((await logIn(newAgent(app), email, PASSWORD)).status).toBe(303);
    for (let i = 0; i < 4; i += 1)
      expect((await logIn(newAgent(app), email, 'wrong password!')).status).toBe(422);
    expect((await logIn(newAgent(app), email, PASSWORD)).status).toBe(303);
  });

  test('a burst of parallel guesses cannot overtake the count', async () => {
    const { email } = await signUp(newAgent(app));
    const agents = Array.from({ length: 10 }, () => newAgent(app));
    const tokens = await Promise.all(agents.map((agent) => csrfOf(agent, '/login')));
    const results = await Promise.all(
      agents.map((agent, i) =>
        agent
          .post('/login')
          .type('form')
          .send({ _csrf: tokens[i], email, password: `guess-number-${i}` }),
      ),
    );
    const statuses = results.map((res) => res.status).sort();
    // Five free attempts; the sixth would have to wait a second after the fifth.
    expect(statuses.filter((status) => status === 422)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(5);
  });
});

describe('login throttle per client address', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  test('30 attempts a minute from one address, spread over many accounts, stop that address', async () => {
    const { email } = await signUp(newAgent(app));
    for (let i = 0; i < 30; i += 1) {
      const res = await logIn(newAgent(app), uniqueEmail(`spray${i}`), 'Winter2026!!');
      expect(res.status).toBe(422);
      expect(errorSummaryText(res.text)).toContain('The email or password is not right.');
    }
    const blocked = await logIn(newAgent(app), email, PASSWORD);
    expect(blocked.status).toBe(429);
    expect(blocked.headers['retry-after']).toBeDefined();
  });
});

describe('in-memory limiter', () => {
  test('counts within a sliding window and says how long to wait', async () => {
    let now = 1_000_000;
    const limiter = createInMemoryLimiter({ limit: 3, windowMs: 60_000, now: () => now });
    expect(await limiter.consume('k')).toBe(0);
    now += 10_000;
    expect(await limiter.consume('k')).toBe(0);
    expect(await limiter.consume('k')).toBe(0);
    expect(await limiter.consume('k')).toBe(50); // the first attempt leaves the window in 50 s
    now += 50_000;
    expect(await limiter.consume('k')).toBe(0);
    expect(await limiter.consume('other')).toBe(0);
  });

  test('refund gives one attempt back; reset forgets the key', async () => {
    const limiter = createInMemoryLimiter({ limit: 2, windowMs: 60_000 });
    await limiter.consume('k');
    await limiter.consume('k');
    expect(await limiter.consume('k')).toBeGreaterThan(0);
    await limiter.refund('k');
    expect(await limiter.consume('k')).toBe(0);
    await limiter.reset('k');
    expect(await limiter.consume('k')).toBe(0);
    expect(await limiter.consume('k')).toBe(0);
  });

  test('memory is bounded: beyond maxKeys the least recently used key goes', async () => {
    const limiter = createInMemoryLimiter({ limit: 1, windowMs: 60_000, maxKeys: 2 });
    await limiter.consume('a');
    await limiter.consume('b');
    await limiter.consume('c');
    expect(await limiter.consume('a')).toBe(0); // evicted, so counted afresh
    expect(await limiter.consume('c')).toBeGreaterThan(0);
  });

  test('client keys, as every limiter makes them (ipKeyGenerator): IPv4 as is, IPv4-mapped unwrapped, IPv6 by /56', () => {
    expect(addressKey('203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('2001:db8:1:2345:aaaa::1')).toBe('2001:db8:1:2300::/56');
    expect(addressKey('2001:db8:1:23ff::9')).toBe('2001:db8:1:2300::/56');
    expect(addressKey('::1')).toBe('::/56');
    expect(addressKey(undefined)).toBe('unknown');
  });
});

// Password hashes: the production cost meets OWASP's minimum for scrypt, and a hash stored at an
// older cost still logs in and is made again at the current one, through the log-in form.
import { randomBytes, scryptSync } from 'node:crypto';
import { ConfigError, loadConfig } from '../../src/config';
import {
  currentPasswordParams,
  DEFAULT_PASSWORD_HASH_COST,
  hashPassword,
  setPasswordHashCost,
  verifyPassword,
} from '../../src/domain/passwords';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { describeWithPostgres } from '../helpers/test-database';
import { logIn, newAgent, uniqueEmail } from './dashboard-helpers';

const SECRET = 'x'.repeat(40);
const PASSWORD = 'an old but good password';

/** A hash as the service stored them before: scrypt N=2^14, r=8, p=1, written by hand here. */
function legacyHash(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize('NFKC'), salt, 32, { N: 16_384, r: 8, p: 1 });
  return ['scrypt', 16_384, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
}

describe('the production cost', () => {
  const testCost = currentPasswordParams();
  afterEach(() => setPasswordHashCost(Math.log2(testCost.N)));

  test("is OWASP's minimum or above by default, and production refuses less", async () => {
    const production = loadConfig({ NODE_ENV: 'production', SESSION_SECRET: SECRET });
    expect(production.passwordHashCost).toBe(DEFAULT_PASSWORD_HASH_COST);
    expect(production.passwordHashCost).toBeGreaterThanOrEqual(17);
    expect(() =>
      loadConfig({ NODE_ENV: 'production', SESSION_SECRET: SECRET, PASSWORD_HASH_COST: '16' }),
    ).toThrow(ConfigError);
    expect(loadConfig({ NODE_ENV: 'test', PASSWORD_HASH_COST: '12' }).passwordHashCost).toBe(12);

    // At that cost a hash really is N=2^17, r=8, p=1 (beyond Node's default memory cap) and verifies.
    setPasswordHashCost(production.passwordHashCost);
    const hash = await hashPassword(PASSWORD);
    const [, n, r, p] = hash.split('$').map(Number);
    expect({ N: n, r, p }).toEqual({ N: 131_072, r: 8, p: 1 });
    expect(await verifyPassword(PASSWORD, hash)).toBe(true);
    expect(await verifyPassword('another password', hash)).toBe(false);
  });
});

function suite(provider: 'sqlite' | 'postgresql') {
  let app: TestApp;
  const testCost = Math.log2(currentPasswordParams().N);
  beforeAll(async () => {
    // Above the legacy N=2^14, as production is, yet cheap enough for a test.
    setPasswordHashCost(15);
    app = await startTestApp({ provider });
  });
  afterAll(async () => {
    setPasswordHashCost(testCost);
    await app.close();
  });

  test('a legacy N=2^14 hash logs in and is stored again at the current cost; sessions stay', async () => {
    const email = uniqueEmail('legacy');
    const old = legacyHash(PASSWORD);
    const user = await app.database.prisma.user.create({ data: { email, passwordHash: old } });
    const other = newAgent(app);
    expect((await logIn(other, email, PASSWORD)).status).toBe(303);

    const row = await app.database.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.passwordHash).not.toBe(old);
    expect(row.passwordHash).toMatch(/^scrypt\$32768\$8\$1\$/);
    // The session that logged in with the old hash goes on; the new hash logs in too.
    expect((await other.get('/dashboard')).status).toBe(200);
    expect((await logIn(newAgent(app), email, PASSWORD)).status).toBe(303);
    const again = await app.database.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(again.passwordHash).toBe(row.passwordHash); // already current: not made again
  });

  test('a wrong password against a legacy hash changes nothing', async () => {
    const email = uniqueEmail('legacy-wrong');
    const old = legacyHash(PASSWORD);
    const user = await app.database.prisma.user.create({ data: { email, passwordHash: old } });
    expect((await logIn(newAgent(app), email, 'not the password at all')).status).toBe(422);
    const row = await app.database.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.passwordHash).toBe(old);
  });
}

describe('rehash at log-in: sqlite', () => suite('sqlite'));
describeWithPostgres('rehash at log-in: postgresql', () => suite('postgresql'));

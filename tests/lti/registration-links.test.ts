// Dynamic Registration addresses: a capability kept by its hash, used once, within its hour.
import {
  createRegistrationLink,
  REGISTRATION_LINK_LIFETIME_MS,
  registrationTokenHash,
} from '../../src/domain/lti/registration-links';
import { createTestUser, describeEachDatabase, startTestApp, type TestApp } from '../helpers/test-app';

describeEachDatabase('LTI registration addresses', (provider) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ provider });
  });
  afterAll(() => app.close());

  test('an address works once, for its owner, and its token is kept only as a hash', async () => {
    const owner = await createTestUser(app, 'dr-owner');
    let now = Date.now();
    const deps = { repos: app.database.repos, baseUrl: 'https://quiz.example.com', now: () => now };
    const link = await createRegistrationLink(deps, owner.id);
    expect(link.registration_url).toMatch(/^https:\/\/quiz\.example\.com\/lti\/register\/[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(link.expires_at) - now).toBe(REGISTRATION_LINK_LIFETIME_MS);
    const token = link.registration_url.split('/').pop()!;
    const rows = await app.database.prisma.ltiRegistrationLink.findMany({ where: { ownerId: owner.id } });
    expect(rows.map((row) => row.tokenHash)).toEqual([registrationTokenHash(token)]);
    expect(JSON.stringify(rows)).not.toContain(token);

    const { lti } = app.database.repos;
    const hash = registrationTokenHash(token);
    // Two uses at once: one wins.
    const uses = await Promise.all([
      lti.useRegistrationLink(hash, new Date(now)),
      lti.useRegistrationLink(hash, new Date(now)),
    ]);
    expect(uses.sort()).toEqual([null, owner.id].sort());
    expect(await lti.useRegistrationLink(hash, new Date(now))).toBeNull();
    // A failed registration gives it back, within its hour only.
    await lti.releaseRegistrationLink(hash);
    expect(await lti.useRegistrationLink(hash, new Date(now))).toBe(owner.id);
    await lti.releaseRegistrationLink(hash);
    now += REGISTRATION_LINK_LIFETIME_MS + 1;
    expect(await lti.useRegistrationLink(hash, new Date(now))).toBeNull();
    expect(await lti.useRegistrationLink(registrationTokenHash('made up'), new Date())).toBeNull();
  });
});

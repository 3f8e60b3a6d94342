// The tool's own LTI signing keys: published as a JWKS, sealed at rest, rotated with the old key
// kept published for an hour.
import { createLocalJWKSet, jwtVerify, SignJWT } from 'jose';
import request from 'supertest';
import {
  KEPT_AFTER_RETIRED_MS,
  ltiSealingKey,
  rotateSigningKey,
  signingKey,
  toolJwks,
} from '../../src/domain/lti/tool-keys';
import { openSecret } from '../../src/domain/webhooks/secrets';
import { describeEachDatabase, startTestApp, type TestApp } from '../helpers/test-app';

describeEachDatabase('the tool LTI keys', (provider) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ provider });
  });
  afterAll(() => app.close());

  test('GET /lti/jwks publishes one public RSA key, made on first use, the same on the next read', async () => {
    const first = await request(app.app).get('/lti/jwks').expect(200);
    expect(first.headers['cache-control']).toBe('public, max-age=300');
    expect(first.body.keys).toHaveLength(1);
    const [key] = first.body.keys;
    expect(key).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', kid: expect.any(String) });
    // Only the public parts: no private exponent or primes.
    for (const secret of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(key).not.toHaveProperty(secret);
    const again = await request(app.app).get('/lti/jwks').expect(200);
    expect(again.body).toEqual(first.body);
  });

  test('the private key is sealed: the stored row holds none of it, and another secret cannot open it', async () => {
    const deps = { repos: app.database.repos, lti: { sealingKey: ltiSealingKey(app.config.sessionSecret!) } };
    const { kid, key } = await signingKey(deps);
    const [row] = (await app.database.repos.lti.toolKeys(new Date())).filter((r) => r.kid === kid);
    const privateJwk = JSON.parse(openSecret(deps.lti.sealingKey, row!.privateSealed)!);
    expect(privateJwk.d).toEqual(expect.any(String));
    expect(row!.privateSealed).not.toContain(privateJwk.d);
    expect(row!.publicJwk).not.toContain(privateJwk.d);
    expect(
      openSecret(ltiSealingKey('another secret of forty characters or so'), row!.privateSealed),
    ).toBeNull();
    // What it signs verifies with the published keys.
    const jwt = await new SignJWT({ hello: 'platform' }).setProtectedHeader({ alg: 'RS256', kid }).sign(key);
    const jwks = createLocalJWKSet((await request(app.app).get('/lti/jwks')).body);
    expect((await jwtVerify(jwt, jwks)).payload.hello).toBe('platform');
  });

  test('a rotation signs with the new key and keeps the old one published for an hour', async () => {
    let now = Date.now();
    const deps = {
      repos: app.database.repos,
      now: () => now,
      lti: { sealingKey: ltiSealingKey(app.config.sessionSecret!) },
    };
    const before = await signingKey(deps);
    const signedBefore = await new SignJWT({})
      .setProtectedHeader({ alg: 'RS256', kid: before.kid })
      .sign(before.key);
    const rotated = await rotateSigningKey(deps);
    expect(rotated).not.toBe(before.kid);
    expect((await signingKey(deps)).kid).toBe(rotated);
    const kids = async () => (await toolJwks(deps)).keys.map((key) => key.kid);
    expect(await kids()).toEqual([rotated, before.kid]);
    // Within the hour, what the old key signed still verifies.
    await jwtVerify(signedBefore, createLocalJWKSet(await toolJwks(deps)));
    now += KEPT_AFTER_RETIRED_MS + 1000;
    expect(await kids()).toEqual([rotated]);
    await expect(jwtVerify(signedBefore, createLocalJWKSet(await toolJwks(deps)))).rejects.toThrow();
  });
});

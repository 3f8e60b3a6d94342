// verifyLaunch against an emulated platform: a valid launch of each message type, and each of
// the checks of LTI 1.3 core §5.1.3 refusing the token that breaks it with its own code. Time is
// a fixed clock handed to both sides (the token's iat, verifyLaunch's `now`), never a sleep.
import { createLocalJWKSet, generateSecret, SignJWT, UnsecuredJWT, type JWTVerifyGetKey } from 'jose';

import { CLAIM } from '../../src/lti/claims';
import { LtiError, type LtiErrorCode } from '../../src/lti/errors';
import { verifyLaunch, type LtiLaunch, type NonceStore } from '../../src/lti/launch';
import { forgetPlatformKeys, platformKeys } from '../../src/lti/platform-keys';
import { movableClock } from '../helpers/clock';
import {
  memoryNonces,
  newPlatformKey,
  startLtiPlatform,
  type LtiPlatformEmulator,
} from '../helpers/lti-platform';

const T0 = Date.parse('2026-12-06T10:00:00Z');
const IAT = T0 / 1000;

let lms: LtiPlatformEmulator;
let keys: JWTVerifyGetKey;

beforeAll(async () => {
  lms = await startLtiPlatform({ deploymentIds: ['deployment-1', 'deployment-2'] });
});

afterAll(async () => {
  forgetPlatformKeys();
  await lms.close();
});

beforeEach(() => {
  keys = platformKeys(lms.platform.jwksUrl, { cooldownMs: 0 });
});

function verify(token: string, options: { at?: number; nonces?: NonceStore; skewSeconds?: number } = {}) {
  return verifyLaunch(token, {
    platform: lms.platform,
    keys,
    nonces: options.nonces ?? memoryNonces(() => options.at ?? T0),
    now: () => new Date(options.at ?? T0),
    ...(options.skewSeconds !== undefined && { skewSeconds: options.skewSeconds }),
  });
}

async function refusal(promise: Promise<unknown>): Promise<LtiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(LtiError);
    return error as LtiError;
  }
  throw new Error('the launch was accepted');
}

async function expectRefused(promise: Promise<unknown>, code: LtiErrorCode, message?: RegExp): Promise<void> {
  const error = await refusal(promise);
  expect(error.code).toBe(code);
  if (message) expect(error.message).toMatch(message);
}

describe('a valid launch', () => {
  test('a resource link launch is read into its typed form, and nothing else is kept', async () => {
    const launch = await verify(await lms.signIdToken({}, { iat: IAT }));
    expect(launch).toEqual<LtiLaunch>({
      messageType: 'LtiResourceLinkRequest',
      platformId: lms.platform.id,
      issuer: lms.platform.issuer,
      clientId: 'quiz-tool-client',
      deploymentId: 'deployment-1',
      version: '1.3.0',
      user: {
        id: 'user-1001',
        name: 'Ada Lovelace',
        givenName: 'Ada',
        familyName: 'Lovelace',
        email: 'ada@school.example',
      },
      roles: { instructor: false, learner: true, administrator: false },
      context: { id: 'course-42', label: 'PHY101', title: 'Physics 101' },
      resourceLink: { id: 'link-7', title: 'Water cycle quiz' },
      targetLinkUri: 'https://quiz.example/lti/launch',
      custom: { quiz: 'water-cycle' },
      ags: {
        scope: [
          'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem',
          'https://purl.imsglobal.org/spec/lti-ags/scope/score',
        ],
        lineitems: `${lms.baseUrl}/courses/42/lineitems`,
        lineitem: `${lms.baseUrl}/courses/42/lineitems/7`,
      },
      nrps: { contextMembershipsUrl: `${lms.baseUrl}/courses/42/memberships` },
      expiresAt: new Date(T0 + 300_000),
    });
  });

  test('a deep linking request is read with its settings', async () => {
    const launch = await verify(await lms.signDeepLinkingRequest({}, { iat: IAT }));
    expect(launch.messageType).toBe('LtiDeepLinkingRequest');
    if (launch.messageType !== 'LtiDeepLinkingRequest') return;
    expect(launch.deepLinking).toEqual({
      deepLinkReturnUrl: `${lms.baseUrl}/deep_links`,
      acceptTypes: ['ltiResourceLink'],
      acceptPresentationDocumentTargets: ['iframe', 'window'],
      acceptMultiple: true,
      data: 'opaque-platform-data',
    });
    expect(launch.roles).toEqual({ instructor: true, learner: false, administrator: false });
    expect(launch.targetLinkUri).toBe('https://quiz.example/lti/deep-link');
    expect('resourceLink' in launch).toBe(false);
  });

  test('what the platform does not share is absent; custom values are kept as text, others left out', async () => {
    const token = await lms.signIdToken(
      {
        name: undefined,
        given_name: undefined,
        family_name: undefined,
        email: undefined,
        [CLAIM.context]: undefined,
        [CLAIM.ags]: undefined,
        [CLAIM.nrps]: undefined,
        [CLAIM.custom]: { attempts: 3, review: true, section: 'B', nested: { no: 1 } },
      },
      { iat: IAT },
    );
    const launch = await verify(token);
    expect(launch.user).toEqual({ id: 'user-1001' });
    expect(launch.custom).toEqual({ attempts: '3', review: 'true', section: 'B' });
    for (const field of ['context', 'ags', 'nrps'] as const) expect(field in launch).toBe(false);
  });

  test('an audience list holding the client id, with azp naming it, is accepted', async () => {
    const token = await lms.signIdToken(
      { aud: ['other-tool', 'quiz-tool-client'], azp: 'quiz-tool-client' },
      { iat: IAT },
    );
    await expect(verify(token)).resolves.toMatchObject({ clientId: 'quiz-tool-client' });
  });

  test('a second deployment of the platform is accepted', async () => {
    const token = await lms.signIdToken({ [CLAIM.deploymentId]: 'deployment-2' }, { iat: IAT });
    await expect(verify(token)).resolves.toMatchObject({ deploymentId: 'deployment-2' });
  });
});

describe('the nonce', () => {
  test('a launch replayed is refused, the first one having passed', async () => {
    const nonces = memoryNonces(() => T0);
    const token = await lms.signIdToken({}, { iat: IAT });
    await verify(token, { nonces });
    await expectRefused(verify(token, { nonces }), 'replayed_nonce', /already used/);
  });

  test('is kept until the token expires with the skew, under a key of the platform and the nonce', async () => {
    const claims: { key: string; ttlMs: number }[] = [];
    const nonces: NonceStore = {
      async claim(key, ttlMs) {
        claims.push({ key, ttlMs });
        return true;
      },
    };
    await verify(await lms.signIdToken({ nonce: 'n-1' }, { iat: IAT, lifetimeSeconds: 300 }), {
      nonces,
      at: T0 + 10_000,
    });
    expect(claims).toEqual([{ key: `${lms.platform.id}:n-1`, ttlMs: (300 - 10 + 60) * 1000 }]);
  });

  test('the same nonce from another platform is its own', async () => {
    const other = await startLtiPlatform();
    try {
      const nonces = memoryNonces(() => T0);
      await verify(await lms.signIdToken({ nonce: 'shared' }, { iat: IAT }), { nonces });
      const launch = await verifyLaunch(await other.signIdToken({ nonce: 'shared' }, { iat: IAT }), {
        platform: other.platform,
        keys: platformKeys(other.platform.jwksUrl),
        nonces,
        now: () => new Date(T0),
      });
      expect(launch.platformId).toBe(other.platform.id);
    } finally {
      await other.close();
    }
  });

  test('a token refused for another reason does not spend its nonce', async () => {
    const nonces = memoryNonces(() => T0);
    await expectRefused(
      verify(await lms.signIdToken({ nonce: 'n-2', [CLAIM.version]: '1.1' }, { iat: IAT }), { nonces }),
      'wrong_version',
    );
    await expect(
      verify(await lms.signIdToken({ nonce: 'n-2' }, { iat: IAT }), { nonces }),
    ).resolves.toBeDefined();
  });

  test('a launch without a nonce is refused', async () => {
    await expectRefused(
      verify(await lms.signIdToken({ nonce: undefined }, { iat: IAT })),
      'missing_claim',
      /nonce/,
    );
  });
});

describe('time', () => {
  test('a token past its expiry is refused beyond the skew, accepted within it', async () => {
    const token = await lms.signIdToken({}, { iat: IAT, lifetimeSeconds: 300 });
    await expect(verify(token, { at: T0 + 359_000 })).resolves.toBeDefined();
    await expectRefused(verify(token, { at: T0 + 361_000 }), 'expired', /start the activity again/);
  });

  test('the skew is configurable', async () => {
    const token = await lms.signIdToken({}, { iat: IAT, lifetimeSeconds: 300 });
    await expectRefused(verify(token, { at: T0 + 305_000, skewSeconds: 0 }), 'expired');
  });

  test('a token issued in the future beyond the skew is refused, within it accepted', async () => {
    await expect(verify(await lms.signIdToken({}, { iat: IAT + 50 }))).resolves.toBeDefined();
    await expectRefused(verify(await lms.signIdToken({}, { iat: IAT + 120 })), 'not_yet_valid', /clock/);
  });

  test('a token whose nbf is ahead beyond the skew is refused', async () => {
    await expectRefused(verify(await lms.signIdToken({ nbf: IAT + 120 }, { iat: IAT })), 'not_yet_valid');
  });

  test('a token without exp or iat is refused', async () => {
    await expectRefused(
      verify(await lms.signIdToken({ exp: undefined }, { iat: IAT })),
      'missing_claim',
      /exp/,
    );
    await expectRefused(
      verify(await lms.signIdToken({ iat: undefined }, { iat: IAT })),
      'missing_claim',
      /iat/,
    );
  });
});

describe('the signature', () => {
  test('a token signed by another key under the platform key id is refused', async () => {
    const stranger = await newPlatformKey();
    const token = await lms.signIdToken({}, { iat: IAT, key: stranger, kid: lms.currentKey.kid });
    await expectRefused(verify(token), 'bad_signature', /not signed by the platform/);
  });

  test('a token naming a key the platform does not publish is refused', async () => {
    const token = await lms.signIdToken({}, { iat: IAT, key: await newPlatformKey() });
    await expectRefused(verify(token), 'bad_signature', /No key published/);
  });

  test('a token signed with a shared secret (HS256) is refused even if the key matched', async () => {
    const secret = await generateSecret('HS256');
    const token = await new SignJWT({ iss: lms.platform.issuer })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(secret);
    await expectRefused(
      verifyLaunch(token, {
        platform: lms.platform,
        keys: async () => secret,
        nonces: memoryNonces(),
        now: () => new Date(T0),
      }),
      'bad_signature',
      /algorithm/,
    );
  });

  test('an unsigned token (alg none) is refused', async () => {
    const token = new UnsecuredJWT({ iss: lms.platform.issuer })
      .setIssuedAt(IAT)
      .setExpirationTime(IAT + 300)
      .encode();
    await expectRefused(verify(token), 'bad_signature', /algorithm/);
  });

  test('something that is not a JWT is refused', async () => {
    await expectRefused(verify('not-a-jwt'), 'malformed_token');
  });

  test('keys that cannot be fetched are their own refusal', async () => {
    const gone = await startLtiPlatform();
    const token = await gone.signIdToken({}, { iat: IAT });
    await gone.close();
    await expectRefused(
      verifyLaunch(token, {
        platform: gone.platform,
        keys: platformKeys(gone.platform.jwksUrl),
        nonces: memoryNonces(),
        now: () => new Date(T0),
      }),
      'keys_unavailable',
      /could not be read/,
    );
  });
});

describe('who the token is from and for', () => {
  test('a token issued by another issuer is refused', async () => {
    await expectRefused(
      verify(await lms.signIdToken({ iss: 'https://evil.example' }, { iat: IAT })),
      'wrong_issuer',
      /evil\.example/,
    );
  });

  test('a token for another client is refused', async () => {
    await expectRefused(
      verify(await lms.signIdToken({ aud: 'another-tool' }, { iat: IAT })),
      'wrong_audience',
      /another-tool/,
    );
  });

  test('several audiences without azp are refused', async () => {
    await expectRefused(
      verify(await lms.signIdToken({ aud: ['quiz-tool-client', 'another-tool'] }, { iat: IAT })),
      'wrong_audience',
      /azp/,
    );
  });

  test('an azp naming another client is refused, with one audience or several', async () => {
    await expectRefused(
      verify(
        await lms.signIdToken(
          { aud: ['quiz-tool-client', 'another-tool'], azp: 'another-tool' },
          { iat: IAT },
        ),
      ),
      'wrong_audience',
      /azp/,
    );
    await expectRefused(
      verify(await lms.signIdToken({ azp: 'another-tool' }, { iat: IAT })),
      'wrong_audience',
      /azp/,
    );
  });

  test('a deployment the platform did not register is refused, and a token without one', async () => {
    await expectRefused(
      verify(await lms.signIdToken({ [CLAIM.deploymentId]: 'deployment-9' }, { iat: IAT })),
      'unknown_deployment',
      /deployment-9.*registration/,
    );
    await expectRefused(
      verify(await lms.signIdToken({ [CLAIM.deploymentId]: undefined }, { iat: IAT })),
      'missing_claim',
      /deployment_id/,
    );
  });
});

describe('the message', () => {
  test('a message type this tool does not take is refused', async () => {
    await expectRefused(
      verify(await lms.signIdToken({ [CLAIM.messageType]: 'LtiSubmissionReviewRequest' }, { iat: IAT })),
      'wrong_message_type',
      /LtiSubmissionReviewRequest/,
    );
    await expectRefused(
      verify(await lms.signIdToken({ [CLAIM.messageType]: undefined }, { iat: IAT })),
      'missing_claim',
      /message_type/,
    );
  });

  test('another LTI version is refused', async () => {
    await expectRefused(
      verify(await lms.signIdToken({ [CLAIM.version]: '1.1.0' }, { iat: IAT })),
      'wrong_version',
      /1\.1\.0/,
    );
    await expectRefused(
      verify(await lms.signIdToken({ [CLAIM.version]: undefined }, { iat: IAT })),
      'missing_claim',
      /version/,
    );
  });

  test('an anonymous launch (no sub) is refused, saying so', async () => {
    await expectRefused(
      verify(await lms.signIdToken({ sub: undefined }, { iat: IAT })),
      'anonymous_launch',
      /anonymous/,
    );
    await expectRefused(
      verify(await lms.signDeepLinkingRequest({ sub: undefined }, { iat: IAT })),
      'anonymous_launch',
    );
  });

  test('the claims each message type requires are required', async () => {
    await expectRefused(
      verify(await lms.signIdToken({ [CLAIM.resourceLink]: undefined }, { iat: IAT })),
      'missing_claim',
      /resource_link/,
    );
    await expectRefused(
      verify(await lms.signIdToken({ [CLAIM.resourceLink]: { title: 'x' } }, { iat: IAT })),
      'missing_claim',
      /resource_link\.id/,
    );
    await expectRefused(
      verify(await lms.signIdToken({ [CLAIM.roles]: undefined }, { iat: IAT })),
      'missing_claim',
      /roles/,
    );
    await expectRefused(
      verify(await lms.signIdToken({ [CLAIM.targetLinkUri]: undefined }, { iat: IAT })),
      'missing_claim',
      /target_link_uri/,
    );
    await expectRefused(
      verify(await lms.signDeepLinkingRequest({ [CLAIM.deepLinkingSettings]: undefined }, { iat: IAT })),
      'missing_claim',
      /deep_linking_settings/,
    );
  });

  test('a malformed claim is refused, naming it', async () => {
    await expectRefused(
      verify(await lms.signIdToken({ [CLAIM.targetLinkUri]: 'javascript:alert(1)' }, { iat: IAT })),
      'invalid_claim',
      /target_link_uri/,
    );
    await expectRefused(
      verify(await lms.signIdToken({ [CLAIM.roles]: 'Instructor' }, { iat: IAT })),
      'invalid_claim',
      /roles/,
    );
    await expectRefused(verify(await lms.signIdToken({ sub: '' }, { iat: IAT })), 'invalid_claim', /sub/);
  });
});

describe("the platform's keys", () => {
  test('a rotated key is picked up (an unknown kid refetches); the retired key verifies only while published', async () => {
    const rotating = await startLtiPlatform();
    try {
      const rotatingKeys = platformKeys(rotating.platform.jwksUrl, { cooldownMs: 0 });
      const launch = (token: string) =>
        verifyLaunch(token, {
          platform: rotating.platform,
          keys: rotatingKeys,
          nonces: memoryNonces(),
          now: () => new Date(T0),
        });
      const first = rotating.currentKey;
      await launch(await rotating.signIdToken({}, { iat: IAT }));
      expect(rotating.jwksFetches).toBe(1);

      await rotating.rotateKey();
      await expect(launch(await rotating.signIdToken({}, { iat: IAT }))).resolves.toBeDefined();
      expect(rotating.jwksFetches).toBe(2);
      // Still published beside the new one: a token signed just before the rotation verifies.
      await expect(launch(await rotating.signIdToken({}, { iat: IAT, key: first }))).resolves.toBeDefined();

      rotating.retireKey(first.kid);
      await rotating.rotateKey({ retirePrevious: true });
      await launch(await rotating.signIdToken({}, { iat: IAT }));
      expect(rotating.publishedKids).toEqual([rotating.currentKey.kid]);
      await expectRefused(launch(await rotating.signIdToken({}, { iat: IAT, key: first })), 'bad_signature');
    } finally {
      await rotating.close();
    }
  });

  test('an unknown kid refetches at most once per cooldown, so made-up key ids cannot make us fetch in a loop', async () => {
    const clock = movableClock();
    const rotating = await startLtiPlatform();
    try {
      // The default cooldown; the clock jose reads for it is Date, moved here instead of waited for.
      const rotatingKeys = platformKeys(rotating.platform.jwksUrl);
      const launch = async (options: { key?: Awaited<ReturnType<typeof newPlatformKey>> } = {}) =>
        verifyLaunch(await rotating.signIdToken({}, options), {
          platform: rotating.platform,
          keys: rotatingKeys,
          nonces: memoryNonces(),
        });
      await launch();
      const stranger = await newPlatformKey();
      for (let i = 0; i < 5; i += 1) await expectRefused(launch({ key: stranger }), 'bad_signature');
      expect(rotating.jwksFetches).toBe(1);

      await rotating.rotateKey();
      await expectRefused(launch(), 'bad_signature');
      clock.advance(31_000);
      await expect(launch()).resolves.toBeDefined();
      expect(rotating.jwksFetches).toBe(2);
    } finally {
      clock.restore();
      await rotating.close();
    }
  });

  test('one resolver per JWKS URL is shared by every launch', () => {
    expect(platformKeys(lms.platform.jwksUrl)).toBe(keys);
    forgetPlatformKeys(lms.platform.jwksUrl);
    expect(platformKeys(lms.platform.jwksUrl)).not.toBe(keys);
  });

  test('a local key set works as well as a remote one', async () => {
    const local = createLocalJWKSet({ keys: [lms.currentKey.publicJwk] });
    const launch = await verifyLaunch(await lms.signIdToken({}, { iat: IAT }), {
      platform: lms.platform,
      keys: local,
      nonces: memoryNonces(),
      now: () => new Date(T0),
    });
    expect(launch.messageType).toBe('LtiResourceLinkRequest');
  });
});

// The credential rules of the domain, without the app: what a key or an access token must be to
// be used. The same refusals through HTTP (one 401 for all) are in tests/http/mcp-auth.test.ts.
import type { Repositories } from '../../src/db/repositories';
import type { ApiKeyRow, OAuthAccessTokenRow } from '../../src/db/hot-queries';
import { sha256Hex } from '../../src/domain/api-keys';
import { hashSecret } from '../../src/domain/oauth/oauth-secrets';
import { verifyAccessToken } from '../../src/domain/oauth/verify-access-token';
import { verifyApiKey } from '../../src/domain/verify-api-key';

const RESOURCE = 'https://quiz.example/api/mcp';
const HOUR = 3_600_000;

/** Repositories that know one row, found by the hash the rule must compute. */
function withApiKey(hash: string, row: ApiKeyRow): Pick<Repositories, 'users'> {
  return { users: { apiKeyByHash: async (wanted: string) => (wanted === hash ? row : null) } } as never;
}
function withAccessToken(hash: string, row: OAuthAccessTokenRow): Pick<Repositories, 'oauth'> {
  return { oauth: { accessTokenByHash: async (wanted: string) => (wanted === hash ? row : null) } } as never;
}

describe('verifyApiKey', () => {
  const key = 'svc_secret';
  const row: ApiKeyRow = { id: 'k1', userId: 'u1', revokedAt: null, lastUsedAt: new Date(0) };

  test('a known key that is not revoked is its owner and its last use', async () => {
    expect(await verifyApiKey(withApiKey(sha256Hex(key), row), key)).toEqual({
      keyId: 'k1',
      userId: 'u1',
      lastUsedAt: new Date(0),
    });
  });

  test('an unknown or a revoked key is refused', async () => {
    expect(await verifyApiKey(withApiKey(sha256Hex(key), row), 'svc_other')).toBeNull();
    expect(await verifyApiKey(withApiKey(sha256Hex(key), { ...row, revokedAt: new Date() }), key)).toBeNull();
  });
});

describe('verifyAccessToken', () => {
  const token = 'qat_secret';
  const row: OAuthAccessTokenRow = {
    id: 't1',
    userId: 'u1',
    clientId: 'c1',
    grantId: 'g1',
    scope: 'quizzes:read quizzes:write',
    resource: RESOURCE,
    accessExpiresAt: new Date(Date.now() + HOUR),
    revokedAt: null,
    grantRevokedAt: null,
    grantLastUsedAt: null,
  };
  const verify = (changes: Partial<OAuthAccessTokenRow>, resource = RESOURCE) =>
    verifyAccessToken(withAccessToken(hashSecret(token), { ...row, ...changes }), token, resource);

  test('a live token for this resource is its grant, user, client and scopes', async () => {
    expect(await verify({})).toEqual({
      grantId: 'g1',
      userId: 'u1',
      clientId: 'c1',
      scopes: ['quizzes:read', 'quizzes:write'],
      grantLastUsedAt: null,
    });
  });

  test('unknown, revoked, of a revoked grant, expired, or for another audience: refused', async () => {
    expect(
      await verifyAccessToken(withAccessToken(hashSecret(token), row), 'qat_other', RESOURCE),
    ).toBeNull();
    expect(await verify({ revokedAt: new Date() })).toBeNull();
    expect(await verify({ grantRevokedAt: new Date() })).toBeNull();
    expect(await verify({ accessExpiresAt: new Date(Date.now() - 1) })).toBeNull();
    expect(await verify({}, 'https://other.example/api/mcp')).toBeNull();
  });
});

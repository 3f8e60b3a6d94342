// Pure rules: redirect URI matching (exact, loopback port free) and which addresses the
// metadata-document fetcher may reach.
import { isLoopbackAddress, isPublicAddress } from '../../src/domain/outbound-address';
import { redirectUriMatches, redirectUriProblem, describeRedirect } from '../../src/oauth/redirect-uris';
import { metadataDocumentUrlProblem } from '../../src/oauth/resolve-client';
import { grantableScopes } from '../../src/oauth/scopes';

describe('redirectUriMatches', () => {
  test.each([
    ['https://claude.ai/api/mcp/auth_callback', 'https://claude.ai/api/mcp/auth_callback', true],
    ['https://claude.ai/api/mcp/auth_callback', 'https://claude.ai/api/mcp/auth_callback/', false],
    ['https://claude.ai/api/mcp/auth_callback', 'https://claude.ai/api/mcp/auth_callback?a=1', false],
    ['https://claude.ai/api/mcp/auth_callback', 'https://claude.ai:443/api/mcp/auth_callback', false],
    ['https://app.example.com:8443/cb', 'https://app.example.com:9443/cb', false],
    ['http://127.0.0.1/cb', 'http://127.0.0.1:4000/cb', true],
    ['http://127.0.0.1:3000/cb', 'http://127.0.0.1:4000/cb', true],
    ['http://127.0.0.1:3000/cb', 'http://127.0.0.1:4000/cb?x', false],
    ['http://127.0.0.1:3000/cb', 'http://127.0.0.1:4000/cb#x', false],
    ['http://127.0.0.1:3000/cb', 'http://127.0.0.1:99999/cb', false],
    ['http://127.0.0.1:3000/cb', 'http://localhost:3000/cb', false],
    ['http://[::1]:3000/cb', 'http://[::1]:5/cb', true],
    ['http://localhost/cb', 'http://localhost:5173/cb', true],
    ['http://127.0.0.1:3000', 'http://127.0.0.1:4000', true],
    ['http://127.0.0.1:3000', 'http://127.0.0.1:4000@evil.example', false],
    ['cursor://anysphere.cursor-retrieval/cb', 'cursor://anysphere.cursor-retrieval/cb', true],
    ['cursor://anysphere.cursor-retrieval/cb', 'cursor://anysphere.cursor-retrieval:1/cb', false],
  ])('%s vs %s -> %s', (registered, requested, expected) => {
    expect(redirectUriMatches(registered, requested)).toBe(expected);
  });

  test('loopback URIs with userinfo never register', () => {
    expect(redirectUriProblem('http://127.0.0.1:4000@evil.example/')).not.toBeNull();
    expect(redirectUriProblem('http://user@127.0.0.1/')).not.toBeNull();
  });

  test('what the consent page shows of a redirect', () => {
    expect(describeRedirect('https://claude.ai/api/mcp/auth_callback')).toEqual({
      host: 'claude.ai',
      kind: 'web',
    });
    expect(describeRedirect('http://127.0.0.1:33418/')).toEqual({
      host: '127.0.0.1:33418',
      kind: 'loopback',
    });
    expect(describeRedirect('com.example.app:/cb')).toEqual({ host: 'com.example.app:', kind: 'app' });
  });
});

describe('isPublicAddress', () => {
  test.each([
    '127.0.0.1',
    '127.8.8.8',
    '10.0.0.1',
    '172.16.5.4',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '198.18.0.1',
    '::',
    '::1',
    '::ffff:127.0.0.1',
    '::ffff:169.254.169.254',
    '64:ff9b::a9fe:a9fe',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'ff02::1',
    '2001:db8::1',
    '2002:a9fe:a9fe::1',
    '2001:0:4136:e378::1',
    'not-an-address',
  ])('refused: %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  test.each(['93.184.216.34', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111', '2a00:1450:4001::200e'])(
    'public: %s',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );

  test('loopback', () => {
    expect(isLoopbackAddress('127.0.0.1')).toBe(true);
    expect(isLoopbackAddress('::1')).toBe(true);
    expect(isLoopbackAddress('10.0.0.1')).toBe(false);
  });
});

describe('metadata document URLs (CIMD section 3)', () => {
  test.each([
    ['http://app.example.com/client.json', 'https'],
    ['https://app.example.com/', 'path'],
    ['https://app.example.com', 'path'],
    ['https://app.example.com/client.json#x', 'fragment'],
    ['https://app.example.com/client.json?x=1', 'query'],
    ['https://user@app.example.com/client.json', 'user name'],
    ['https://app.example.com/a/../client.json', 'canonical'],
    ['https://APP.example.com/client.json', 'canonical'],
  ])('%s refused (%s)', (url, reason) => {
    expect(metadataDocumentUrlProblem(url, false)).toContain(reason);
  });

  test('a canonical https URL with a path is fine', () => {
    expect(metadataDocumentUrlProblem('https://app.example.com/oauth/client.json', false)).toBeNull();
  });
});

describe('grantableScopes (RFC 6749 3.3)', () => {
  test('absent: everything the client may ask for; unknown scopes are dropped; nothing left: null', () => {
    expect(grantableScopes(undefined, null)).toEqual(['quizzes:read', 'quizzes:write']);
    expect(grantableScopes(undefined, ['quizzes:read'])).toEqual(['quizzes:read']);
    expect(grantableScopes(['quizzes:write', 'offline_access'], null)).toEqual(['quizzes:write']);
    expect(grantableScopes(['quizzes:write'], ['quizzes:read'])).toBeNull();
    expect(grantableScopes(['admin'], null)).toBeNull();
  });
});

// An LTI 1.3 platform (an LMS) for tests: its own RSA keys, its JWKS served over HTTP on
// 127.0.0.1, and id tokens it signs as Moodle or Canvas would. Its HTTP side is a table of
// routes (`route`), so an OIDC authorization endpoint, a token endpoint, AGS and NRPS endpoints
// can be added beside the JWKS without changing what the launch tests use.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';

import { CLAIM, LTI_VERSION, type LtiMessageType } from '../../src/lti/claims';
import type { NonceStore } from '../../src/lti/launch';
import type { LtiPlatform } from '../../src/lti/platform';

export interface PlatformKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export type RouteHandler = (
  request: http.IncomingMessage,
  body: string,
) => Promise<{ status: number; headers?: Record<string, string>; body: unknown }>;

/** Claims merged over the defaults; a claim set to `undefined` is left out of the token. */
export type ClaimOverrides = Record<string, unknown>;

export interface SignOptions {
  /** Sign with this key instead of the current one (e.g. a stranger's, or a retired one). */
  key?: PlatformKey;
  /** The `kid` header; by default the signing key's. */
  kid?: string;
  /** The time of issue, in seconds; by default now. The expiry follows it by `lifetimeSeconds`. */
  iat?: number;
  lifetimeSeconds?: number;
}

export interface LtiPlatformEmulator {
  /** The record the tool would hold for this platform. */
  readonly platform: LtiPlatform;
  readonly baseUrl: string;
  /** The key signing now. */
  readonly currentKey: PlatformKey;
  /** The keys the JWKS publishes now. */
  readonly publishedKids: readonly string[];
  /** How many times the JWKS was fetched. */
  readonly jwksFetches: number;
  /** A resource link launch, valid for `platform` unless overridden. */
  signIdToken(overrides?: ClaimOverrides, options?: SignOptions): Promise<string>;
  /** A deep linking request, valid for `platform` unless overridden. */
  signDeepLinkingRequest(overrides?: ClaimOverrides, options?: SignOptions): Promise<string>;
  /** A new key signs from now on; the previous one stays published unless `retirePrevious`. */
  rotateKey(options?: { retirePrevious?: boolean }): Promise<PlatformKey>;
  /** Stops publishing a key. */
  retireKey(kid: string): void;
  /** Adds (or replaces) a route of the platform's HTTP side. */
  route(method: string, path: string, handler: RouteHandler): void;
  close(): Promise<void>;
}

export interface LtiPlatformOptions {
  clientId?: string;
  deploymentIds?: string[];
  /** The default user of a launch (`sub`). */
  userId?: string;
}

/** A key pair of the kind platforms sign with (RS256, 2048 bits). */
export async function newPlatformKey(): Promise<PlatformKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { modulusLength: 2048 });
  const kid = randomUUID();
  return { kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } };
}

export async function startLtiPlatform(options: LtiPlatformOptions = {}): Promise<LtiPlatformEmulator> {
  let current = await newPlatformKey();
  const published = new Map<string, PlatformKey>([[current.kid, current]]);
  const routes = new Map<string, RouteHandler>();
  let jwksFetches = 0;

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = new URL(request.url ?? '/', 'http://platform.test').pathname;
      const handler = routes.get(`${request.method} ${path}`);
      const answer: ReturnType<RouteHandler> = handler
        ? handler(request, Buffer.concat(chunks).toString('utf8'))
        : Promise.resolve({ status: 404, body: { error: 'not_found' } });
      answer.then(
        ({ status, headers = {}, body }) => {
          const text = typeof body === 'string' ? body : JSON.stringify(body);
          response.writeHead(status, { 'content-type': 'application/json', ...headers });
          response.end(text);
        },
        (error: unknown) => {
          response.writeHead(500, { 'content-type': 'text/plain' });
          response.end(String(error));
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  routes.set('GET /jwks', async () => {
    jwksFetches += 1;
    return { status: 200, body: { keys: [...published.values()].map((key) => key.publicJwk) } };
  });

  const platform: LtiPlatform = {
    id: `platform-${randomUUID()}`,
    issuer: baseUrl,
    clientId: options.clientId ?? 'quiz-tool-client',
    deploymentIds: options.deploymentIds ?? ['deployment-1'],
    authLoginUrl: `${baseUrl}/auth`,
    authTokenUrl: `${baseUrl}/token`,
    jwksUrl: `${baseUrl}/jwks`,
  };
  const userId = options.userId ?? 'user-1001';

  function commonClaims(messageType: LtiMessageType): ClaimOverrides {
    return {
      iss: platform.issuer,
      aud: platform.clientId,
      sub: userId,
      nonce: randomUUID(),
      name: 'Ada Lovelace',
      given_name: 'Ada',
      family_name: 'Lovelace',
      email: 'ada@school.example',
      [CLAIM.messageType]: messageType,
      [CLAIM.version]: LTI_VERSION,
      [CLAIM.deploymentId]: platform.deploymentIds[0],
      [CLAIM.roles]: [
        'http://purl.imsglobal.org/vocab/lis/v2/membership#Learner',
        'http://purl.imsglobal.org/vocab/lis/v2/institution/person#Student',
      ],
      [CLAIM.context]: { id: 'course-42', label: 'PHY101', title: 'Physics 101', type: ['CourseSection'] },
      [CLAIM.custom]: { quiz: 'water-cycle' },
      // Moodle and Canvas put their own claims beside LTI's: the tool must ignore them.
      'https://purl.imsglobal.org/spec/lti/claim/tool_platform': {
        guid: 'moodle-1',
        product_family_code: 'moodle',
      },
      'https://www.example.com/extension': { color: 'violet' },
    };
  }

  async function sign(
    claims: ClaimOverrides,
    overrides: ClaimOverrides,
    signOptions: SignOptions,
  ): Promise<string> {
    const key = signOptions.key ?? current;
    const iat = signOptions.iat ?? Math.floor(Date.now() / 1000);
    const merged: ClaimOverrides = {
      iat,
      exp: iat + (signOptions.lifetimeSeconds ?? 300),
      ...claims,
      ...overrides,
    };
    const payload = Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== undefined));
    return new SignJWT(payload)
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: signOptions.kid ?? key.kid })
      .sign(key.privateKey);
  }

  return {
    platform,
    baseUrl,
    get currentKey() {
      return current;
    },
    get publishedKids() {
      return [...published.keys()];
    },
    get jwksFetches() {
      return jwksFetches;
    },
    signIdToken(overrides = {}, signOptions = {}) {
      return sign(
        {
          ...commonClaims('LtiResourceLinkRequest'),
          [CLAIM.targetLinkUri]: 'https://quiz.example/lti/launch',
          [CLAIM.resourceLink]: { id: 'link-7', title: 'Water cycle quiz', description: 'Week 3' },
          [CLAIM.ags]: {
            scope: [
              'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem',
              'https://purl.imsglobal.org/spec/lti-ags/scope/score',
            ],
            lineitems: `${baseUrl}/courses/42/lineitems`,
            lineitem: `${baseUrl}/courses/42/lineitems/7`,
          },
          [CLAIM.nrps]: {
            context_memberships_url: `${baseUrl}/courses/42/memberships`,
            service_versions: ['2.0'],
          },
        },
        overrides,
        signOptions,
      );
    },
    signDeepLinkingRequest(overrides = {}, signOptions = {}) {
      return sign(
        {
          ...commonClaims('LtiDeepLinkingRequest'),
          [CLAIM.roles]: ['http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor'],
          [CLAIM.targetLinkUri]: 'https://quiz.example/lti/deep-link',
          [CLAIM.deepLinkingSettings]: {
            deep_link_return_url: `${baseUrl}/deep_links`,
            accept_types: ['ltiResourceLink'],
            accept_presentation_document_targets: ['iframe', 'window'],
            accept_multiple: true,
            auto_create: true,
            data: 'opaque-platform-data',
          },
        },
        overrides,
        signOptions,
      );
    },
    async rotateKey({ retirePrevious = false } = {}) {
      const previous = current;
      current = await newPlatformKey();
      published.set(current.kid, current);
      if (retirePrevious) published.delete(previous.kid);
      return current;
    },
    retireKey(kid) {
      published.delete(kid);
    },
    route(method, path, handler) {
      routes.set(`${method.toUpperCase()} ${path}`, handler);
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}

/** A nonce store in memory, on the given clock: what Redis or the database does in the service. */
export function memoryNonces(now: () => number = Date.now): NonceStore & { readonly size: number } {
  const expiries = new Map<string, number>();
  return {
    async claim(key, ttlMs) {
      const at = now();
      const expiry = expiries.get(key);
      if (expiry !== undefined && expiry > at) return false;
      expiries.set(key, at + ttlMs);
      return true;
    },
    get size() {
      return expiries.size;
    },
  };
}

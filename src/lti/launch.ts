// Verifying an LTI 1.3 launch: the id token the platform posts to the tool's launch URL (LTI 1.3
// core §5.1.2-5.1.3, 1EdTech Security Framework §5.1.3). Every claim the service uses is read
// with zod; claims it does not understand are left out of the result.
import { errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { z } from 'zod';

import { CLAIM, LTI_VERSION, MESSAGE_TYPES, type LtiMessageType } from './claims';
import { LtiError } from './errors';
import type { LtiPlatform } from './platform';
import { reduceRoles, type LtiRoles } from './roles';

/**
 * RS256 is the one LTI requires every platform to support; the other asymmetric JWA algorithms
 * are accepted for a platform that signs with them. A symmetric algorithm (HS256, keyed with a
 * secret both sides hold) or `none` is never accepted.
 */
export const LTI_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
];

export const DEFAULT_SKEW_SECONDS = 60;

export interface NonceStore {
  /** True the first time `key` is claimed within `ttlMs`, false on every later claim. */
  claim(key: string, ttlMs: number): Promise<boolean>;
}

export interface VerifyLaunchOptions {
  platform: LtiPlatform;
  keys: JWTVerifyGetKey;
  nonces: NonceStore;
  /** The nonce the tool sent in this browser's login (kept in its state): the token must carry it. */
  expectedNonce?: string;
  now?: () => Date;
  skewSeconds?: number;
}

export interface LtiUser {
  /** The platform's stable id of the person (`sub`). */
  id: string;
  name?: string;
  givenName?: string;
  familyName?: string;
  email?: string;
}

export interface LtiContext {
  id: string;
  title?: string;
  label?: string;
}

export interface LtiResourceLink {
  id: string;
  title?: string;
}

export interface LtiAgsEndpoint {
  scope: string[];
  lineitems?: string;
  lineitem?: string;
}

export interface LtiNrpsEndpoint {
  contextMembershipsUrl: string;
}

export interface LtiDeepLinkingSettings {
  deepLinkReturnUrl: string;
  acceptTypes: string[];
  acceptPresentationDocumentTargets: string[];
  acceptMultiple?: boolean;
  /** Opaque to the tool: sent back as is in the deep linking response. */
  data?: string;
}

interface LtiLaunchBase {
  platformId: string;
  issuer: string;
  clientId: string;
  deploymentId: string;
  version: typeof LTI_VERSION;
  user: LtiUser;
  roles: LtiRoles;
  context?: LtiContext;
  targetLinkUri: string;
  custom: Record<string, string>;
  ags?: LtiAgsEndpoint;
  nrps?: LtiNrpsEndpoint;
  /** When the id token expires; a session made from it may of course last longer. */
  expiresAt: Date;
}

export interface LtiResourceLinkLaunch extends LtiLaunchBase {
  messageType: 'LtiResourceLinkRequest';
  resourceLink: LtiResourceLink;
}

export interface LtiDeepLinkingLaunch extends LtiLaunchBase {
  messageType: 'LtiDeepLinkingRequest';
  deepLinking: LtiDeepLinkingSettings;
}

export type LtiLaunch = LtiResourceLinkLaunch | LtiDeepLinkingLaunch;

// ---- the claims, as zod reads them -------------------------------------------------------------

const text = z.string().min(1);
const url = z.url({ protocol: /^https?$/ });
const optionalText = z.string().optional();

// Platforms send the audience as one string or a list (OIDC core §2).
const Registered = z.object({
  iss: text,
  aud: z.union([text, z.array(text).min(1)]),
  azp: text.optional(),
  exp: z.number(),
  iat: z.number(),
  nonce: text,
  sub: z.string().optional(),
  name: optionalText,
  given_name: optionalText,
  family_name: optionalText,
  email: optionalText,
});

// Custom parameters are strings by the spec; a number or boolean (from a substitution) is kept as
// its text, anything else is not understood and left out.
const Custom = z.record(z.string(), z.unknown()).transform((record) =>
  Object.fromEntries(
    Object.entries(record)
      .filter(([, value]) => ['string', 'number', 'boolean'].includes(typeof value))
      .map(([key, value]) => [key, String(value)]),
  ),
);

const flag = z.union([z.boolean(), z.enum(['true', 'false']).transform((value) => value === 'true')]);

const Common = z.object({
  [CLAIM.targetLinkUri]: url,
  [CLAIM.roles]: z.array(z.string()),
  [CLAIM.context]: z.object({ id: text, title: optionalText, label: optionalText }).optional(),
  [CLAIM.custom]: Custom.optional(),
  [CLAIM.ags]: z
    .object({ scope: z.array(text), lineitems: url.optional(), lineitem: url.optional() })
    .optional(),
  [CLAIM.nrps]: z.object({ context_memberships_url: url }).optional(),
});

const ResourceLinkClaims = Common.extend({
  [CLAIM.resourceLink]: z.object({ id: text, title: optionalText }),
});

const DeepLinkingClaims = Common.extend({
  [CLAIM.deepLinkingSettings]: z.object({
    deep_link_return_url: url,
    accept_types: z.array(text).min(1),
    accept_presentation_document_targets: z.array(text).min(1),
    accept_multiple: flag.optional(),
    data: optionalText,
  }),
});

const CLAIM_NAMES: Record<string, string> = {
  iss: 'iss (the issuer)',
  aud: 'aud (the audience)',
  exp: 'exp (the expiry)',
  iat: 'iat (the time of issue)',
  nonce: 'nonce',
  [CLAIM.targetLinkUri]: 'target_link_uri',
  [CLAIM.roles]: 'roles',
  [CLAIM.resourceLink]: 'resource_link',
  [CLAIM.deepLinkingSettings]: 'deep_linking_settings',
};

/** The refusal for a zod failure: which claim, and whether it is absent or malformed. */
function claimError(payload: JWTPayload, issues: z.core.$ZodIssue[]): LtiError {
  const issue = issues[0];
  const path = issue?.path.map(String) ?? [];
  let value: unknown = payload;
  for (const key of path)
    value = value !== null && typeof value === 'object' ? (value as never)[key] : undefined;
  const top = path[0] ?? '';
  const named = [CLAIM_NAMES[top] ?? top, ...path.slice(1)].join('.');
  if (value === undefined) {
    return new LtiError('missing_claim', `The launch lacks the claim ${named}, which LTI 1.3 requires here.`);
  }
  return new LtiError(
    'invalid_claim',
    `The launch's claim ${named} is malformed: ${issue?.message ?? 'invalid'}.`,
  );
}

// ---- verification ------------------------------------------------------------------------------

/** Verifies a launch's id token for `platform`, and reads it; any refusal is an LtiError. */
export async function verifyLaunch(idToken: string, options: VerifyLaunchOptions): Promise<LtiLaunch> {
  const { platform, keys, nonces } = options;
  const now = (options.now ?? (() => new Date()))();
  const skew = options.skewSeconds ?? DEFAULT_SKEW_SECONDS;

  const payload = await verifySignature(idToken, keys, now, skew, platform);

  const registered = Registered.safeParse(payload);
  if (!registered.success) throw claimError(payload, registered.error.issues);
  const claims = registered.data;

  if (claims.iss !== platform.issuer) {
    throw new LtiError(
      'wrong_issuer',
      `The launch was issued by ${claims.iss}, not by ${platform.issuer}, the platform it was sent for.`,
    );
  }
  const audience = typeof claims.aud === 'string' ? [claims.aud] : claims.aud;
  if (!audience.includes(platform.clientId)) {
    throw new LtiError(
      'wrong_audience',
      `The launch is meant for ${audience.join(', ')}, not for this tool's client id ${platform.clientId} at ${platform.issuer}: check the client id in the registration.`,
    );
  }
  // With several audiences, azp names the one the token was issued to (OIDC core §3.1.3.7); when
  // present it must be us in any case.
  if (audience.length > 1 && claims.azp === undefined) {
    throw new LtiError('wrong_audience', 'The launch names several audiences but no azp (authorized party).');
  }
  if (claims.azp !== undefined && claims.azp !== platform.clientId) {
    throw new LtiError(
      'wrong_audience',
      `The launch was issued to ${claims.azp} (azp), not to this tool's client id ${platform.clientId}.`,
    );
  }
  const nowSeconds = now.getTime() / 1000;
  if (claims.iat > nowSeconds + skew) {
    throw new LtiError(
      'not_yet_valid',
      `The launch was issued ${Math.round(claims.iat - nowSeconds)} s in the future: the platform's clock or ours is wrong.`,
    );
  }

  const deploymentId = payload[CLAIM.deploymentId];
  if (deploymentId === undefined) {
    throw new LtiError('missing_claim', 'The launch lacks the claim deployment_id, which LTI 1.3 requires.');
  }
  if (typeof deploymentId !== 'string' || !platform.deploymentIds.includes(deploymentId)) {
    throw new LtiError(
      'unknown_deployment',
      `The deployment ${String(deploymentId)} of ${platform.issuer} is not registered with this tool: add its deployment id to the platform's registration.`,
    );
  }

  const messageType = payload[CLAIM.messageType];
  if (messageType === undefined) {
    throw new LtiError('missing_claim', 'The launch lacks the claim message_type, which LTI 1.3 requires.');
  }
  if (!MESSAGE_TYPES.includes(messageType as LtiMessageType)) {
    throw new LtiError(
      'wrong_message_type',
      `The launch is a ${String(messageType)} message; this tool takes ${MESSAGE_TYPES.join(' and ')}.`,
    );
  }
  const version = payload[CLAIM.version];
  if (version === undefined) {
    throw new LtiError('missing_claim', 'The launch lacks the claim version, which LTI 1.3 requires.');
  }
  if (version !== LTI_VERSION) {
    throw new LtiError(
      'wrong_version',
      `The launch is of LTI version ${String(version)}; this tool takes ${LTI_VERSION}.`,
    );
  }

  // Without sub the launch is anonymous (core §5.3.6); nothing in the service can serve one yet.
  if (claims.sub === undefined) {
    throw new LtiError(
      'anonymous_launch',
      'The launch is anonymous (no sub): this tool needs to know who is launching it. Let the platform share the user id with the tool.',
    );
  }
  if (claims.sub === '')
    throw new LtiError('invalid_claim', "The launch's claim sub (the user id) is empty.");

  const base = {
    platformId: platform.id,
    issuer: platform.issuer,
    clientId: platform.clientId,
    deploymentId,
    version: LTI_VERSION,
    user: {
      id: claims.sub,
      ...(claims.name !== undefined && { name: claims.name }),
      ...(claims.given_name !== undefined && { givenName: claims.given_name }),
      ...(claims.family_name !== undefined && { familyName: claims.family_name }),
      ...(claims.email !== undefined && { email: claims.email }),
    },
    expiresAt: new Date(claims.exp * 1000),
  } as const;

  let launch: LtiLaunch;
  if (messageType === 'LtiResourceLinkRequest') {
    const parsed = ResourceLinkClaims.safeParse(payload);
    if (!parsed.success) throw claimError(payload, parsed.error.issues);
    const link = parsed.data[CLAIM.resourceLink];
    launch = {
      ...base,
      ...common(parsed.data),
      messageType,
      resourceLink: { id: link.id, ...(link.title !== undefined && { title: link.title }) },
    };
  } else {
    const parsed = DeepLinkingClaims.safeParse(payload);
    if (!parsed.success) throw claimError(payload, parsed.error.issues);
    const settings = parsed.data[CLAIM.deepLinkingSettings];
    launch = {
      ...base,
      ...common(parsed.data),
      messageType: 'LtiDeepLinkingRequest',
      deepLinking: {
        deepLinkReturnUrl: settings.deep_link_return_url,
        acceptTypes: settings.accept_types,
        acceptPresentationDocumentTargets: settings.accept_presentation_document_targets,
        ...(settings.accept_multiple !== undefined && { acceptMultiple: settings.accept_multiple }),
        ...(settings.data !== undefined && { data: settings.data }),
      },
    };
  }

  if (options.expectedNonce !== undefined && claims.nonce !== options.expectedNonce) {
    throw new LtiError(
      'wrong_nonce',
      'This launch does not answer the login this browser started (another nonce): start the activity again from the platform.',
    );
  }
  // Claimed last, so a token refused for another reason does not spend its nonce. The key is
  // per platform, as two platforms' nonces may collide; it is kept until the token expires (with
  // the skew), after which the token is refused anyway.
  const ttlMs = Math.max(1, (claims.exp + skew) * 1000 - now.getTime());
  if (!(await nonces.claim(`${platform.id}:${claims.nonce}`, ttlMs))) {
    throw new LtiError(
      'replayed_nonce',
      'This launch was already used (its nonce was seen before): start the activity again from the platform.',
    );
  }
  return launch;
}

function common(claims: z.infer<typeof Common>) {
  const context = claims[CLAIM.context];
  const ags = claims[CLAIM.ags];
  const nrps = claims[CLAIM.nrps];
  return {
    roles: reduceRoles(claims[CLAIM.roles]),
    targetLinkUri: claims[CLAIM.targetLinkUri],
    custom: claims[CLAIM.custom] ?? {},
    ...(context !== undefined && {
      context: {
        id: context.id,
        ...(context.title !== undefined && { title: context.title }),
        ...(context.label !== undefined && { label: context.label }),
      },
    }),
    ...(ags !== undefined && {
      ags: {
        scope: ags.scope,
        ...(ags.lineitems !== undefined && { lineitems: ags.lineitems }),
        ...(ags.lineitem !== undefined && { lineitem: ags.lineitem }),
      },
    }),
    ...(nrps !== undefined && { nrps: { contextMembershipsUrl: nrps.context_memberships_url } }),
  };
}

/** The signature and jose's own time checks, its errors turned into ours. */
async function verifySignature(
  idToken: string,
  keys: JWTVerifyGetKey,
  now: Date,
  skew: number,
  platform: LtiPlatform,
): Promise<JWTPayload> {
  try {
    const { payload } = await jwtVerify(idToken, keys, {
      algorithms: LTI_ALGORITHMS,
      currentDate: now,
      clockTolerance: skew,
      requiredClaims: ['exp', 'iat'],
    });
    return payload;
  } catch (error) {
    throw joseRefusal(error, platform);
  }
}

function joseRefusal(error: unknown, platform: LtiPlatform): LtiError {
  const cause = { cause: error };
  if (error instanceof errors.JWTExpired) {
    return new LtiError(
      'expired',
      'The launch has expired: start the activity again from the platform.',
      cause,
    );
  }
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.reason === 'missing') {
      return new LtiError(
        'missing_claim',
        `The launch lacks the claim ${error.claim}, which LTI 1.3 requires.`,
        cause,
      );
    }
    if (error.claim === 'nbf') {
      return new LtiError(
        'not_yet_valid',
        "The launch is not valid yet (nbf): the platform's clock or ours is wrong.",
        cause,
      );
    }
    return new LtiError('invalid_claim', `The launch's claim ${error.claim} is malformed.`, cause);
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return new LtiError(
      'bad_signature',
      `The launch's signature does not match the key ${platform.issuer} publishes: it was not signed by the platform.`,
      cause,
    );
  }
  if (error instanceof errors.JWKSNoMatchingKey) {
    return new LtiError(
      'bad_signature',
      `No key published at ${platform.jwksUrl} matches the launch's key id: it was not signed by the platform, or the registration's JWKS URL is wrong.`,
      cause,
    );
  }
  if (error instanceof errors.JOSEAlgNotAllowed) {
    return new LtiError(
      'bad_signature',
      `The launch is signed with an algorithm LTI does not allow here; accepted: ${LTI_ALGORITHMS.join(', ')}.`,
      cause,
    );
  }
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) {
    return new LtiError('malformed_token', 'The launch is not a well-formed signed JWT.', cause);
  }
  if (
    error instanceof errors.JWKSTimeout ||
    error instanceof errors.JWKSInvalid ||
    error instanceof errors.JOSEError
  ) {
    return new LtiError(
      'keys_unavailable',
      `The platform's keys could not be read from ${platform.jwksUrl}; try again, and check the registration's JWKS URL if it lasts.`,
      cause,
    );
  }
  // Fetching the keys failed below jose (refused connection, DNS): the same to the person.
  return new LtiError(
    'keys_unavailable',
    `The platform's keys could not be read from ${platform.jwksUrl}; try again, and check the registration's JWKS URL if it lasts.`,
    cause,
  );
}

import { z } from 'zod';
import type { LtiPlatformRow } from '../../db/repositories/lti';
import type { DomainDeps } from '../deps';
import { DomainError, invalidInput, type FieldIssue } from '../errors';

/** What a registration takes at most: bounded, so a form or a platform cannot store a novel. */
const NAME_MAX = 100;
const ID_MAX = 255;
const URL_MAX = 2048;
const DEPLOYMENTS_MAX = 50;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * A platform's address: https, or http on this machine alone (a Moodle on 127.0.0.1 while it is
 * tried, the tests' emulator). No credentials or fragment in it.
 */
const platformUrl = (field: string) =>
  z
    .string({ error: `${field}: the platform's address, https://...` })
    .trim()
    .max(URL_MAX, { error: `${field} takes at most ${URL_MAX} characters` })
    .refine(
      (text) => {
        if (!URL.canParse(text)) return false;
        const url = new URL(text);
        if (url.username || url.password || url.hash) return false;
        return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname));
      },
      {
        error: `${field} must be an https:// address (http only on this machine), with no user or #fragment`,
      },
    );

const text = (field: string, max: number) =>
  z
    .string({ error: `${field} is missing` })
    .trim()
    .min(1, { error: `${field} is missing` })
    .max(max, { error: `${field} takes at most ${max} characters` });

export const PlatformInputSchema = z.strictObject({
  name: text('name', NAME_MAX),
  issuer: platformUrl('issuer'),
  client_id: text('client_id', ID_MAX),
  deployment_ids: z
    .array(text('deployment_ids', ID_MAX), { error: 'deployment_ids: a list of the deployment ids' })
    .min(1, { error: 'deployment_ids: at least one, as the platform shows it' })
    .max(DEPLOYMENTS_MAX, { error: `deployment_ids: at most ${DEPLOYMENTS_MAX}` }),
  auth_login_url: platformUrl('auth_login_url'),
  auth_token_url: platformUrl('auth_token_url'),
  jwks_url: platformUrl('jwks_url'),
});
export type PlatformInput = z.input<typeof PlatformInputSchema>;

/** A platform as its owner sees it. */
export function platformView(row: LtiPlatformRow) {
  return {
    platform_id: row.id,
    name: row.name,
    issuer: row.issuer,
    client_id: row.clientId,
    deployment_ids: row.deploymentIds,
    auth_login_url: row.authLoginUrl,
    auth_token_url: row.authTokenUrl,
    jwks_url: row.jwksUrl,
    registered_via: row.registeredVia,
    created_at: row.createdAt.toISOString(),
  };
}

/** The tool's addresses a platform's administrator copies into the platform. */
export function toolEndpoints(baseUrl: string) {
  const at = (path: string) => new URL(path, baseUrl).toString();
  return {
    login_url: at('/lti/login'),
    launch_url: at('/lti/launch'),
    redirect_urls: [at('/lti/launch')],
    deep_linking_url: at('/lti/launch'),
    jwks_url: at('/lti/jwks'),
  };
}

/**
 * Registers a platform to the owner's account. An issuer and client id pair is one registration
 * across the service, whoever holds it: a second is refused, and the refusal names no owner.
 */
export async function registerPlatform(
  deps: Pick<DomainDeps, 'repos'>,
  ownerId: string,
  input: unknown,
  via: 'manual' | 'dynamic' = 'manual',
) {
  const parsed = PlatformInputSchema.safeParse(input);
  if (!parsed.success) {
    const issues: FieldIssue[] = parsed.error.issues.map((issue) => ({
      field: issue.path.length > 0 ? issue.path.map(String).join('.') : 'platform',
      message:
        issue.code === 'unrecognized_keys' ? `unknown fields: ${issue.keys.join(', ')}` : issue.message,
      code: issue.code === 'unrecognized_keys' ? 'unknown_field' : 'invalid',
    }));
    throw invalidInput(issues, 'The platform was not registered');
  }
  const value = parsed.data;
  const created = await deps.repos.lti.createPlatform({
    ownerId,
    name: value.name,
    issuer: value.issuer,
    clientId: value.client_id,
    deploymentIds: [...new Set(value.deployment_ids)],
    authLoginUrl: value.auth_login_url,
    authTokenUrl: value.auth_token_url,
    jwksUrl: value.jwks_url,
    registeredVia: via,
  });
  if (created === 'taken')
    throw invalidInput(
      [
        {
          field: 'client_id',
          message:
            'this issuer and client id are registered already: ask the platform for a new client id, or remove the other registration first',
          code: 'invalid',
        },
      ],
      'The platform was not registered',
    );
  if (created === null) throw new DomainError('user_not_found', 'The account is gone');
  return platformView(created);
}

export async function listPlatforms(deps: Pick<DomainDeps, 'repos'>, ownerId: string) {
  return (await deps.repos.lti.platformsOf(ownerId)).map(platformView);
}

/** Removes the owner's platform; another owner's is not found. */
export async function removePlatform(deps: Pick<DomainDeps, 'repos'>, ownerId: string, platformId: string) {
  if (!(await deps.repos.lti.deletePlatform(ownerId, platformId)))
    throw invalidInput([
      { field: 'platform_id', message: 'no such platform in your account', code: 'invalid' },
    ]);
}

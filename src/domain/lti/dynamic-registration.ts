import { z } from 'zod';
import type { DomainDeps } from '../deps';
import { isDomainError } from '../errors';
import type { Resolver } from '../outbound-address';
import { registerPlatform, toolEndpoints } from './platforms';
import { platformJson, PlatformRequestFailed } from './platform-request';
import { registrationTokenHash } from './registration-links';

/**
 * LTI Dynamic Registration (1EdTech, 1.0): the platform opens the owner's registration address
 * with its OpenID configuration's address and a registration token; the tool reads the
 * configuration, sends its own to the platform's registration endpoint, and stores the platform
 * the answer names, into the address's owner's account. The address works once: a registration
 * that fails gives it back, so the administrator can try again within the hour.
 */
export interface RegistrationSettings {
  allowLoopback: boolean;
  resolve?: Resolver | undefined;
}

const LTI_PLATFORM_CONFIGURATION = 'https://purl.imsglobal.org/spec/lti-platform-configuration';
const LTI_TOOL_CONFIGURATION = 'https://purl.imsglobal.org/spec/lti-tool-configuration';

/** The scopes of the services the tool uses: grades back (AGS) and the roster (NRPS). */
export const TOOL_SCOPES = [
  'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem',
  'https://purl.imsglobal.org/spec/lti-ags/scope/score',
  'https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly',
  'https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly',
] as const;

const PlatformConfigurationSchema = z.looseObject({
  issuer: z.string(),
  authorization_endpoint: z.string(),
  token_endpoint: z.string(),
  jwks_uri: z.string(),
  registration_endpoint: z.string(),
  [LTI_PLATFORM_CONFIGURATION]: z.looseObject({ product_family_code: z.string().optional() }).optional(),
});

const RegistrationAnswerSchema = z.looseObject({
  client_id: z.string().min(1),
  [LTI_TOOL_CONFIGURATION]: z.looseObject({ deployment_id: z.string().min(1).optional() }).optional(),
});

/** Why a registration did not happen, in words for the page the administrator sees. */
export class RegistrationRefused extends Error {
  override readonly name = 'RegistrationRefused';
}

/** What the tool tells the platform about itself (the registration request's body). */
export function toolRegistration(baseUrl: string) {
  const urls = toolEndpoints(baseUrl);
  return {
    application_type: 'web',
    response_types: ['id_token'],
    grant_types: ['implicit', 'client_credentials'],
    initiate_login_uri: urls.login_url,
    redirect_uris: urls.redirect_urls,
    client_name: 'Quiz service',
    jwks_uri: urls.jwks_url,
    token_endpoint_auth_method: 'private_key_jwt',
    scope: TOOL_SCOPES.join(' '),
    [LTI_TOOL_CONFIGURATION]: {
      domain: new URL(baseUrl).host,
      target_link_uri: urls.launch_url,
      claims: ['iss', 'sub', 'name', 'given_name', 'family_name', 'email'],
      messages: [
        { type: 'LtiDeepLinkingRequest', target_link_uri: urls.deep_linking_url, label: 'Quiz service' },
      ],
    },
  };
}

/** "Moodle at moodle.camus.example": the platform's product and host, for the owner's list. */
function platformName(issuer: string, product: string | undefined): string {
  const host = new URL(issuer).host;
  if (!product) return `LTI platform at ${host}`;
  return `${product.charAt(0).toUpperCase()}${product.slice(1)} at ${host}`;
}

export async function registerDynamically(
  deps: Pick<DomainDeps, 'repos' | 'baseUrl' | 'now'>,
  settings: RegistrationSettings,
  request: { token: string; openidConfiguration: unknown; registrationToken: unknown },
) {
  const hash = registrationTokenHash(request.token);
  const ownerId = await deps.repos.lti.useRegistrationLink(hash, new Date(deps.now?.() ?? Date.now()));
  if (ownerId === null)
    throw new RegistrationRefused(
      'This registration address was used already, has expired, or was never made: make a new one on the dashboard (Settings, Learning platforms) and paste it into the platform again.',
    );
  try {
    return await register(deps, settings, ownerId, request);
  } catch (error) {
    await deps.repos.lti.releaseRegistrationLink(hash);
    if (error instanceof RegistrationRefused) throw error;
    if (error instanceof PlatformRequestFailed)
      throw new RegistrationRefused(`The platform could not be registered: ${error.message}.`);
    if (isDomainError(error))
      throw new RegistrationRefused(`The platform could not be registered. ${error.message}`);
    throw error;
  }
}

async function register(
  deps: Pick<DomainDeps, 'repos' | 'baseUrl'>,
  settings: RegistrationSettings,
  ownerId: string,
  request: { openidConfiguration: unknown; registrationToken: unknown },
) {
  if (typeof request.openidConfiguration !== 'string' || !URL.canParse(request.openidConfiguration))
    throw new RegistrationRefused(
      'The platform opened this address without its openid_configuration: start the registration from the platform, which adds it.',
    );
  const configurationUrl = new URL(request.openidConfiguration);
  const read = PlatformConfigurationSchema.safeParse(
    await platformJson(configurationUrl.toString(), settings),
  );
  if (!read.success)
    throw new RegistrationRefused(
      `The platform's OpenID configuration lacks ${read.error.issues.map((issue) => issue.path.join('.')).join(', ')}.`,
    );
  const configuration = read.data;
  // The configuration must be the issuer's own: served under the issuer's address.
  if (
    !URL.canParse(configuration.issuer) ||
    !configurationUrl.toString().startsWith(configuration.issuer.replace(/\/$/, ''))
  )
    throw new RegistrationRefused(
      `The platform's OpenID configuration names the issuer ${configuration.issuer}, which is not where it was read from (${configurationUrl.origin}).`,
    );
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (typeof request.registrationToken === 'string' && request.registrationToken !== '')
    headers.authorization = `Bearer ${request.registrationToken}`;
  const answered = RegistrationAnswerSchema.safeParse(
    await platformJson(configuration.registration_endpoint, {
      ...settings,
      method: 'POST',
      headers,
      body: JSON.stringify(toolRegistration(deps.baseUrl)),
    }),
  );
  if (!answered.success)
    throw new RegistrationRefused("The platform's answer to the registration has no client_id.");
  const deploymentId = answered.data[LTI_TOOL_CONFIGURATION]?.deployment_id;
  if (!deploymentId)
    throw new RegistrationRefused(
      'The platform registered the tool but named no deployment: register it by hand on the dashboard with the deployment id the platform shows.',
    );
  return registerPlatform(
    deps,
    ownerId,
    {
      name: platformName(
        configuration.issuer,
        configuration[LTI_PLATFORM_CONFIGURATION]?.product_family_code,
      ),
      issuer: configuration.issuer,
      client_id: answered.data.client_id,
      deployment_ids: [deploymentId],
      auth_login_url: configuration.authorization_endpoint,
      auth_token_url: configuration.token_endpoint,
      jwks_url: configuration.jwks_uri,
    },
    'dynamic',
  );
}

// The OIDC third-party-initiated login that starts every LTI 1.3 launch (LTI 1.3 core §5.1.1,
// 1EdTech Security Framework §5.1.1): the platform sends the tool to its login URL with these
// parameters, and the tool answers with a redirect to the platform's authorization endpoint.
import { z } from 'zod';

import { LtiError } from './errors';
import type { LtiPlatform } from './platform';

export interface LtiLoginRequest {
  issuer: string;
  loginHint: string;
  targetLinkUri: string;
  ltiMessageHint?: string;
  clientId?: string;
  deploymentId?: string;
}

// A parameter given twice (`?iss=a&iss=b`) arrives as an array from Express: refused rather than
// settled by picking one.
const text = z.string().min(1);
const absoluteUrl = text.refine((value) => {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}, 'must be an absolute http(s) URL');

const LoginParams = z.object({
  iss: text,
  login_hint: text,
  target_link_uri: absoluteUrl,
  lti_message_hint: text.optional(),
  client_id: text.optional(),
  lti_deployment_id: text.optional(),
});

const REQUIRED = ['iss', 'login_hint', 'target_link_uri'] as const;

/** Reads the login initiation's parameters (the query of a GET or the form of a POST). */
export function readLoginRequest(params: Record<string, unknown>): LtiLoginRequest {
  const missing = REQUIRED.filter((name) => params[name] === undefined || params[name] === '');
  if (missing.length > 0) {
    throw new LtiError(
      'bad_login_request',
      `The LTI login request lacks ${missing.join(', ')}: the platform must send iss, login_hint and target_link_uri (LTI 1.3 core 5.1.1). Check the tool's login URL in the platform's registration.`,
    );
  }
  const parsed = LoginParams.safeParse(params);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((issue) => `${issue.path.join('.')} (${issue.message})`);
    throw new LtiError(
      'bad_login_request',
      `The LTI login request has invalid parameters: ${fields.join(', ')}.`,
    );
  }
  const p = parsed.data;
  return {
    issuer: p.iss,
    loginHint: p.login_hint,
    targetLinkUri: p.target_link_uri,
    ...(p.lti_message_hint !== undefined && { ltiMessageHint: p.lti_message_hint }),
    ...(p.client_id !== undefined && { clientId: p.client_id }),
    ...(p.lti_deployment_id !== undefined && { deploymentId: p.lti_deployment_id }),
  };
}

export interface AuthenticationRequestOptions {
  /** The tool's launch URL, as registered at the platform. */
  redirectUri: string;
  /** Bound to the browser (a cookie) and checked when the launch comes back. */
  state: string;
  /** Comes back inside the id token, where verifyLaunch claims it once. */
  nonce: string;
}

/**
 * The URL of the platform's authorization endpoint to redirect the browser to. Refuses a login
 * that does not belong to `platform`, so a caller that looked the platform up loosely cannot send
 * one platform's user to another.
 */
export function authenticationRedirect(
  platform: LtiPlatform,
  login: LtiLoginRequest,
  options: AuthenticationRequestOptions,
): string {
  if (login.issuer !== platform.issuer) {
    throw new LtiError(
      'wrong_issuer',
      `The login names the issuer ${login.issuer}, not ${platform.issuer} of the platform it was matched to.`,
    );
  }
  if (login.clientId !== undefined && login.clientId !== platform.clientId) {
    throw new LtiError(
      'wrong_audience',
      `The login names the client id ${login.clientId}, which is not the one registered for ${platform.issuer}.`,
    );
  }
  if (login.deploymentId !== undefined && !platform.deploymentIds.includes(login.deploymentId)) {
    throw new LtiError(
      'unknown_deployment',
      `The deployment ${login.deploymentId} of ${platform.issuer} is not registered with this tool: add its deployment id to the platform's registration.`,
    );
  }
  for (const [name, value] of Object.entries(options)) {
    if (value === '') throw new LtiError('bad_login_request', `The authentication request needs a ${name}.`);
  }
  const url = new URL(platform.authLoginUrl);
  const query: Record<string, string> = {
    scope: 'openid',
    response_type: 'id_token',
    response_mode: 'form_post',
    prompt: 'none',
    client_id: platform.clientId,
    redirect_uri: options.redirectUri,
    login_hint: login.loginHint,
    state: options.state,
    nonce: options.nonce,
  };
  // Sent back exactly when the platform sent one: it carries the platform's own context.
  if (login.ltiMessageHint !== undefined) query.lti_message_hint = login.ltiMessageHint;
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url.toString();
}

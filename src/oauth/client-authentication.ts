import type { Request } from 'express';
import {
  clientAuthenticates,
  type OAuthClientRecord,
  type PresentedClientCredentials,
} from '../domain/oauth/oauth-clients';
import { OAuthProblem } from './oauth-errors';
import type { ClientResolver } from './resolve-client';

/**
 * Client authentication at the token and revocation endpoints (RFC 6749 section 2.3, which
 * RFC 7009 section 2.1 refers to): HTTP Basic (`client_secret_basic`) or `client_id` +
 * `client_secret` in the body (`client_secret_post`); a public client identifies itself with
 * `client_id` alone. One method per request, naming one client. Read here once per request; the
 * token endpoint's library model checks the same credentials (oauth-model.ts getClient).
 */
function basicCredentials(header: string): { clientId: string; secret: string } | null {
  const match = /^Basic +([A-Za-z0-9+/]+=*) *$/i.exec(header);
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  try {
    // RFC 6749 section 2.3.1: both parts are form-urlencoded before encoding.
    const clientId = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
    return { clientId, secret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')) };
  } catch {
    return null;
  }
}

/** The client credentials a token or revocation request presents, or an OAuthProblem. */
export function readClientCredentials(req: Request): PresentedClientCredentials {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const header = req.headers.authorization;
  if (header !== undefined) {
    const credentials = basicCredentials(header);
    if (!credentials)
      throw new OAuthProblem(
        'invalid_client',
        'The Authorization header is not valid HTTP Basic authentication.',
      );
    // RFC 6749 section 2.3: a client uses one authentication method per request.
    if (body.client_secret !== undefined) {
      throw new OAuthProblem(
        'invalid_request',
        'Send the client secret either in the header or in the body, not both.',
      );
    }
    // One request, one client: a body naming another would be ignored by one reader and
    // believed by the next.
    if (body.client_id !== undefined && body.client_id !== credentials.clientId) {
      throw new OAuthProblem(
        'invalid_request',
        'client_id in the body names another client than the Authorization header: send one client.',
      );
    }
    return { ...credentials, method: 'client_secret_basic' };
  }
  const { client_id: clientId, client_secret: secret } = body;
  if (typeof clientId !== 'string' || clientId === '') {
    throw new OAuthProblem('invalid_client', 'Identify the client: client_id, or HTTP Basic authentication.');
  }
  if (secret !== undefined && typeof secret !== 'string')
    throw new OAuthProblem('invalid_request', 'client_secret is sent twice.');
  return { clientId, secret, method: secret === undefined ? 'none' : 'client_secret_post' };
}

/** The client a token or revocation request names, unchecked (it picks a rate-limit bucket), or undefined. */
export function claimedClientId(req: Request): string | undefined {
  const header = req.headers.authorization;
  if (header !== undefined) return basicCredentials(header)?.clientId;
  const clientId = ((req.body ?? {}) as Record<string, unknown>).client_id;
  return typeof clientId === 'string' && clientId !== '' ? clientId : undefined;
}

export async function authenticateClient(req: Request, clients: ClientResolver): Promise<OAuthClientRecord> {
  const presented = readClientCredentials(req);
  const client = await clients.findKnownClient(presented.clientId);
  if (!client || !clientAuthenticates(client, presented))
    throw new OAuthProblem('invalid_client', 'Client authentication failed.');
  return client;
}

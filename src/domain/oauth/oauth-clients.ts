import { timingSafeEqual } from 'node:crypto';
import type { OAuthClientRow, Repositories } from '../../db/repositories';
import { CLIENT_SECRET_PREFIX, generateClientId, generateSecret, hashSecret } from './oauth-secrets';

/**
 * OAuth clients: those that registered themselves (RFC 7591) and those known by a Client ID
 * Metadata Document (their id is the document's URL). Input is validated by the transport
 * layer (src/oauth/client-metadata.ts); these functions only store and read.
 */
export type ClientSource = 'registration' | 'metadata_document';
export type TokenEndpointAuthMethod = 'none' | 'client_secret_basic' | 'client_secret_post';
export type GrantType = 'authorization_code' | 'refresh_token';

export interface OAuthClientRecord {
  id: string;
  source: ClientSource;
  name: string | null;
  redirectUris: string[];
  grantTypes: GrantType[];
  tokenEndpointAuthMethod: TokenEndpointAuthMethod;
  /**
   * The client named its method at registration, so no other is accepted (RFC 7591 2). A client
   * that took the default (`client_secret_basic`) may send its secret either way, as it always
   * could: enforcing a default it never chose would break it at its next refresh.
   */
  authMethodDeclared: boolean;
  /** Null for public clients (`token_endpoint_auth_method: none`). */
  secretHash: string | null;
  /** Scopes the client may ask for; null: every supported scope. */
  scope: string[] | null;
  createdAt: Date;
}

export interface ClientMetadata {
  name: string | null;
  redirectUris: string[];
  grantTypes: GrantType[];
  tokenEndpointAuthMethod: TokenEndpointAuthMethod;
  authMethodDeclared: boolean;
  scope: string[] | null;
}

type OAuth = Pick<Repositories, 'oauth'>;

function toRecord(row: OAuthClientRow): OAuthClientRecord {
  return {
    id: row.id,
    source: row.source as ClientSource,
    name: row.name,
    redirectUris: JSON.parse(row.redirectUris) as string[],
    grantTypes: JSON.parse(row.grantTypes) as GrantType[],
    tokenEndpointAuthMethod: row.tokenEndpointAuthMethod as TokenEndpointAuthMethod,
    authMethodDeclared: row.authMethodDeclared,
    secretHash: row.secretHash,
    scope: row.scope ? row.scope.split(' ') : null,
    createdAt: row.createdAt,
  };
}

function columns(metadata: ClientMetadata) {
  return {
    name: metadata.name,
    redirectUris: JSON.stringify(metadata.redirectUris),
    grantTypes: JSON.stringify(metadata.grantTypes),
    tokenEndpointAuthMethod: metadata.tokenEndpointAuthMethod,
    authMethodDeclared: metadata.authMethodDeclared,
    scope: metadata.scope ? metadata.scope.join(' ') : null,
  };
}

export function isPublicClient(client: OAuthClientRecord): boolean {
  return client.tokenEndpointAuthMethod === 'none';
}

export async function findOAuthClient({ oauth }: OAuth, id: string): Promise<OAuthClientRecord | null> {
  const row = await oauth.clientById(id);
  return row ? toRecord(row) : null;
}

/** RFC 7591 3.2.1: a confidential client's secret is returned here, once, and never again. */
export async function registerOAuthClient(
  { oauth }: OAuth,
  metadata: ClientMetadata,
): Promise<{ client: OAuthClientRecord; secret: string | null }> {
  const secret = metadata.tokenEndpointAuthMethod === 'none' ? null : generateSecret(CLIENT_SECRET_PREFIX);
  const row = await oauth.createClient({
    id: generateClientId(),
    source: 'registration',
    secretHash: secret ? hashSecret(secret) : null,
    ...columns(metadata),
  });
  return { client: toRecord(row), secret };
}

/**
 * Keeps the latest validated copy of a metadata document, so grants can refer to the client
 * and the token endpoint knows it without fetching again. Such clients never have a secret
 * (CIMD: shared secrets are not allowed for them).
 */
export async function saveMetadataDocumentClient(
  { oauth }: OAuth,
  id: string,
  metadata: ClientMetadata,
): Promise<OAuthClientRecord> {
  const data = { ...columns(metadata), tokenEndpointAuthMethod: 'none' as const, secretHash: null };
  return toRecord(await oauth.saveClient(id, 'metadata_document', data));
}

/** How a token or revocation request authenticated its client (RFC 6749 2.3). */
export interface PresentedClientCredentials {
  clientId: string;
  secret: string | undefined;
  method: TokenEndpointAuthMethod;
}

/**
 * Whether the request authenticates this client: a public client with nothing but its id (a
 * secret sent by one is refused, not ignored), a confidential one with its secret, sent the way
 * it declared at registration when it declared one.
 */
export function clientAuthenticates(
  client: OAuthClientRecord,
  presented: PresentedClientCredentials,
): boolean {
  if (isPublicClient(client)) return !presented.secret;
  if (presented.secret === undefined || !clientSecretMatches(client, presented.secret)) return false;
  return !client.authMethodDeclared || presented.method === client.tokenEndpointAuthMethod;
}

/** Compares hashes, so the comparison takes the same time whatever was sent. */
export function clientSecretMatches(client: OAuthClientRecord, secret: string): boolean {
  if (!client.secretHash) return false;
  const sent = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(client.secretHash, 'hex');
  return sent.length === stored.length && timingSafeEqual(sent, stored);
}

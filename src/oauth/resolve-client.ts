import type { Repositories } from '../db/repositories';
import {
  findOAuthClient,
  saveMetadataDocumentClient,
  type OAuthClientRecord,
} from '../domain/oauth/oauth-clients';
import { parseClientMetadata } from './client-metadata';
import {
  fetchClientMetadata,
  MetadataFetchError,
  type FetchClientMetadataOptions,
} from './fetch-client-metadata';
import { OAuthProblem } from './oauth-errors';
import type { Logger } from '../logger';

/**
 * Who a `client_id` is. Registered clients (RFC 7591) come from the database. A client id
 * that is an https URL is a Client ID Metadata Document (MCP 2025-11-25; draft-ietf-oauth-
 * client-id-metadata-document): the document at that URL is fetched, validated and cached,
 * and its latest copy is stored so grants can refer to it and the token endpoint never
 * has to fetch.
 */
export interface ClientResolverOptions {
  repos: Repositories;
  /** Where the reason a metadata fetch failed goes: the caller is told less (see loadDocument). */
  logger?: Logger;
  fetch?: FetchClientMetadataOptions;
  /** Cache bounds for documents, in seconds (Cache-Control max-age is clamped into them). */
  minCacheSeconds?: number;
  maxCacheSeconds?: number;
}

export interface ClientResolver {
  /** For the authorization endpoint: throws ClientResolutionError with a reason a person can read. */
  resolveForAuthorization(clientId: string): Promise<OAuthClientRecord>;
  /** For the token and revocation endpoints: stored clients only, no fetching. */
  findKnownClient(clientId: string): Promise<OAuthClientRecord | null>;
}

export class ClientResolutionError extends Error {
  override readonly name = 'ClientResolutionError';
}

const MAX_CLIENT_ID_LENGTH = 2000;
const MAX_CACHED_DOCUMENTS = 500;

/** Why a URL client id cannot name a metadata document (CIMD section 3), or null. */
export function metadataDocumentUrlProblem(clientId: string, allowHttp: boolean): string | null {
  if (clientId.length > MAX_CLIENT_ID_LENGTH) return `it is longer than ${MAX_CLIENT_ID_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return 'it is not a valid URL';
  }
  if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:')) return 'it must use https';
  if (url.username || url.password) return 'it must not contain a user name or password';
  if (clientId.includes('#')) return 'it must not contain a fragment';
  if (url.search) return 'it must not contain a query string';
  if (url.pathname === '/') return 'it must have a path, such as https://example.com/oauth/client.json';
  // One spelling per document: no dot segments, no case or escaping variants (href is canonical).
  if (url.href !== clientId) return `it must be written in canonical form (${url.href})`;
  return null;
}

function looksLikeUrl(clientId: string): boolean {
  return /^https?:\/\//i.test(clientId);
}

export function createClientResolver(options: ClientResolverOptions): ClientResolver {
  const { repos } = options;
  const minSeconds = options.minCacheSeconds ?? 60;
  const maxSeconds = options.maxCacheSeconds ?? 24 * 60 * 60;
  const allowHttp = options.fetch?.allowLoopbackForTests === true;
  const cache = new Map<string, { client: OAuthClientRecord; expiresAt: number }>();
  const inFlight = new Map<string, Promise<OAuthClientRecord>>();

  async function loadDocument(clientId: string): Promise<OAuthClientRecord> {
    let fetched;
    try {
      fetched = await fetchClientMetadata(new URL(clientId), options.fetch);
    } catch (error) {
      if (error instanceof MetadataFetchError) {
        // One message whatever failed (name resolution, a private address, a timeout, a status):
        // telling which step failed would make this endpoint a scanner of other networks.
        options.logger?.warn({ clientId, reason: error.message }, 'client metadata document not fetched');
        throw new ClientResolutionError(
          `The app's metadata document at ${clientId} could not be fetched. ` +
            'The app must serve it over https from a public address, as JSON of at most 5 KB, without redirects.',
        );
      }
      throw error;
    }
    const body = fetched.body as { client_id?: unknown } | null;
    if (body === null || typeof body !== 'object' || body.client_id !== clientId) {
      throw new ClientResolutionError(
        `The app's metadata document at ${clientId} was refused: its client_id must be exactly that URL.`,
      );
    }
    let metadata;
    try {
      metadata = parseClientMetadata(body, 'metadata_document');
    } catch (error) {
      if (error instanceof OAuthProblem) {
        throw new ClientResolutionError(
          `The app's metadata document at ${clientId} is not valid: ${error.description}.`,
        );
      }
      throw error;
    }
    const client = await saveMetadataDocumentClient(repos, clientId, metadata);
    // RFC 9111 freshness from max-age, clamped: at least a minute (no fetch per request, which
    // would make this server a request amplifier) and at most a day (changes do arrive).
    const seconds = Math.min(maxSeconds, Math.max(minSeconds, fetched.maxAgeSeconds ?? 0));
    if (cache.size >= MAX_CACHED_DOCUMENTS) cache.delete(cache.keys().next().value as string);
    cache.set(clientId, { client, expiresAt: Date.now() + seconds * 1000 });
    return client;
  }

  async function resolveDocument(clientId: string): Promise<OAuthClientRecord> {
    const problem = metadataDocumentUrlProblem(clientId, allowHttp);
    if (problem) throw new ClientResolutionError(`The client_id ${clientId} cannot be used: ${problem}.`);
    const cached = cache.get(clientId);
    if (cached && cached.expiresAt > Date.now()) return cached.client;
    cache.delete(clientId);
    // Concurrent authorizations of one app share one fetch.
    let pending = inFlight.get(clientId);
    if (!pending) {
      pending = loadDocument(clientId).finally(() => inFlight.delete(clientId));
      inFlight.set(clientId, pending);
    }
    return pending;
  }

  return {
    async resolveForAuthorization(clientId) {
      if (looksLikeUrl(clientId)) return resolveDocument(clientId);
      const client = clientId.length <= 100 ? await findOAuthClient(repos, clientId) : null;
      if (!client || client.source !== 'registration') {
        throw new ClientResolutionError(
          'No app is registered with this client_id. The app must register again.',
        );
      }
      return client;
    },
    async findKnownClient(clientId) {
      if (clientId.length > MAX_CLIENT_ID_LENGTH) return null;
      return findOAuthClient(repos, clientId);
    },
  };
}

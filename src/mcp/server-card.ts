import { createHash } from 'node:crypto';
import express, { type RequestHandler, type Router } from 'express';
import { MCP_PATH } from '../http/authenticate';
import { baseUrlFor, isLoopbackBase } from '../http/loopback-origin';
import { SERVER_NAME, TOOLSET_VERSION } from '../version';
import { SERVED_PROTOCOL_VERSIONS } from './served-versions';

/**
 * The MCP Server Card (the experimental server-card extension): what a client or a registry
 * reads about this server before it connects, at `<MCP endpoint>/server-card`, the location the
 * extension reserves. It names the server, its version and the one streamable-HTTP endpoint with
 * the protocol versions it serves, never its tools (those stay with tools/list) or a secret.
 */
export const SERVER_CARD_PATH = `${MCP_PATH}/server-card`;
export const SERVER_CARD_TYPE = 'application/mcp-server-card+json';
const CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';
const REGISTRY_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json';

/** The server's reverse-DNS name: its host read backwards, then the service's own name. */
export function serverCardName(baseUrl: string): string {
  const host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '').replace(/[^a-zA-Z0-9.-]/g, '-');
  return `${host.split('.').reverse().join('.')}/${SERVER_NAME}`;
}

/** What the card and the registry's server.json both say of the service served at `base`. */
function describedServer(base: string) {
  return {
    name: serverCardName(base),
    version: TOOLSET_VERSION,
    title: 'Quiz service',
    description: 'Create, publish, take, grade and analyse quizzes and forms from an assistant.',
    websiteUrl: `${base}/`,
    remote: {
      type: 'streamable-http',
      url: `${base}${MCP_PATH}`,
      headers: [
        {
          name: 'Authorization',
          description:
            'Bearer and a personal API key (svc_...) from the dashboard; without it, clients sign in with OAuth.',
          isRequired: false,
          isSecret: true,
        },
      ],
    },
  };
}

/** The card for the service served at `base`. */
export function serverCard(base: string): Record<string, unknown> {
  const { remote, ...server } = describedServer(base);
  return {
    $schema: CARD_SCHEMA,
    ...server,
    remotes: [{ ...remote, supportedProtocolVersions: [...SERVED_PROTOCOL_VERSIONS] }],
  };
}

/**
 * The MCP Registry's entry (server.json) for the service served at `base`: the card's facts in
 * the registry's schema, a remote only. `npm run server-json` writes it; the repository keeps one.
 */
export function registryServerJson(base: string): Record<string, unknown> {
  const { remote, ...server } = describedServer(base);
  return { $schema: REGISTRY_SCHEMA, ...server, remotes: [remote] };
}

/** The card, public and cacheable, with an ETag that answers If-None-Match with a 304. */
export function serverCardRouter({ baseUrl, limiter }: { baseUrl: string; limiter: RequestHandler }): Router {
  const router = express.Router();
  const bodies = new Map<string, { body: string; etag: string }>();
  const cors = {
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Methods': 'GET',
    'Access-Control-Allow-Headers': 'Content-Type, If-None-Match',
    'Access-Control-Expose-Headers': 'ETag',
  };
  router.options(SERVER_CARD_PATH, (_req, res) => {
    res.set(cors).status(204).end();
  });
  router.get(SERVER_CARD_PATH, limiter, (req, res) => {
    const base = baseUrlFor(req, baseUrl);
    let card = bodies.get(base);
    if (card === undefined) {
      const body = JSON.stringify(serverCard(base));
      card = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
      bodies.set(base, card);
    }
    res.set({ ...cors, 'Cache-Control': 'public, max-age=3600', ETag: card.etag });
    // On loopback the card follows the host name used, so caches keep one copy per Host.
    if (isLoopbackBase(baseUrl)) res.vary('Host');
    const sent = req.headers['if-none-match'];
    if (sent && sent.split(',').some((tag) => tag.trim().replace(/^W\//, '') === card.etag)) {
      res.status(304).end();
      return;
    }
    res.type(SERVER_CARD_TYPE).send(card.body);
  });
  return router;
}

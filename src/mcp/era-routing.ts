import {
  createMcpHandler,
  DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
  isLegacyRequest,
  PROTOCOL_VERSION_META_KEY,
  type McpServerFactory,
} from '@modelcontextprotocol/server';
import { NodeStreamableHTTPServerTransport, toNodeHandler } from '@modelcontextprotocol/node';
import type { Request, Response } from 'express';
import { ACCEPT_BOTH, type JsonRpcMessage, type ResponseMode } from './edge-checks';

/**
 * Both protocol eras on one URL, and the one place where our edge adapts to the SDK.
 *
 * - 2026-07-28 requests (they carry the per-request `_meta` envelope) and 2025-era requests
 *   answered as SSE go to the SDK's `createMcpHandler`, mounted with `toNodeHandler`: the
 *   envelope, `server/discover`, each era's own errors and the stateless 2025 leg are the SDK's.
 * - 2025-era requests that accept only `application/json` go to a stateless
 *   `NodeStreamableHTTPServerTransport` with `enableJsonResponse`: one plain JSON body, as this
 *   endpoint has always answered them. The SDK's handler has no such mode for that era.
 * - The SDK's 2025 transports answer 406 unless Accept lists both JSON and SSE, whatever
 *   `enableJsonResponse` says, so once the edge has settled what the client gets (SSE for the
 *   spec's pair, `*\/*`, `text/*` or no Accept; JSON for `application/json` alone), the 2025
 *   request is handed the pair.
 *
 * Where our answer depends on the era, the SDK's own `isLegacyRequest` decides, so the branch
 * never disagrees with the handler. A request that accepts both types is routed by the SDK's
 * handler alone: classifying it here too would parse the message a second time for nothing.
 */

/**
 * What `isLegacyRequest` reads of a request whose body is already parsed: the method and the
 * three MCP headers. The probe it is given carries exactly those, so classifying costs no copy
 * of the other headers and no second serialisation of the body (`toWebRequest` does both, and
 * it showed in CPU profiles: docs/performance.md). tests/mcp/era-classification.test.ts
 * holds the probe's verdicts against a full `toWebRequest` conversion over a corpus of
 * requests, so an SDK that starts reading more is caught there.
 */
const CLASSIFIED_HEADERS = ['mcp-protocol-version', 'mcp-method', 'mcp-name'] as const;

export function classificationProbe(req: Request): globalThis.Request {
  const headers: Record<string, string> = {};
  for (const name of CLASSIFIED_HEADERS) {
    const value = req.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  return new globalThis.Request(`http://${req.headers.host ?? 'localhost'}${req.originalUrl}`, {
    method: req.method,
    headers,
  });
}

export type Era = 'legacy' | 'modern';

export interface EraRouter {
  /** Which era the request speaks, by the SDK's classification. */
  classify(req: Request, message: JsonRpcMessage): Promise<Era>;
  /** Serves the request in its era, answering as `mode` says. */
  serve(mode: ResponseMode, req: Request, res: Response, message: JsonRpcMessage): Promise<void>;
}

function acceptsBoth(req: Request): boolean {
  const accept = (req.headers.accept ?? '').toLowerCase();
  return accept.includes('application/json') && accept.includes('text/event-stream');
}

export function createEraRouter(factory: McpServerFactory, onerror: (error: Error) => void): EraRouter {
  const sdk = toNodeHandler(createMcpHandler(factory, { onerror }), { onerror });

  async function serveLegacyJson(req: Request, res: Response, message: JsonRpcMessage) {
    const server = await factory({ era: 'legacy', ...(req.auth ? { authInfo: req.auth } : {}) });
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => {
      // A finished exchange holds nothing to release; closing it anyway would only build a
      // "Connection closed" error with its stack for requests that no longer exist. A client
      // that leaves mid-call has its handler aborted.
      if (res.writableFinished) return;
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, message);
  }

  async function classify(req: Request, message: JsonRpcMessage): Promise<Era> {
    return (await isLegacyRequest(classificationProbe(req), message)) ? 'legacy' : 'modern';
  }

  return {
    classify,
    async serve(mode, req, res, message) {
      if (mode === 'sse' && acceptsBoth(req)) {
        await sdk(req, res, message);
        return;
      }
      if ((await classify(req, message)) === 'modern') {
        await sdk(req, res, message);
        return;
      }
      req.headers.accept = ACCEPT_BOTH;
      if (mode === 'json') await serveLegacyJson(req, res, message);
      else await sdk(req, res, message);
    },
  };
}

/**
 * The era a request declares, for the access log and the metrics: 2026-07-28 requests carry the
 * protocol version in their `_meta` envelope or name a 2026 revision in MCP-Protocol-Version.
 * Routing never depends on it (see `classify`).
 */
export function declaredEra(req: Request, message: JsonRpcMessage): Era {
  const meta = (message.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
  if (meta && PROTOCOL_VERSION_META_KEY in meta) return 'modern';
  const header = req.headers['mcp-protocol-version'];
  return typeof header === 'string' && header >= '2026' ? 'modern' : 'legacy';
}

/** The protocol version a request speaks, for the access log and the metrics. */
export function protocolVersionOf(era: Era, req: Request, message: JsonRpcMessage): string {
  const header = req.headers['mcp-protocol-version'];
  const declared = typeof header === 'string' ? header : undefined;
  const params = message.params as { protocolVersion?: unknown; _meta?: Record<string, unknown> } | undefined;
  if (era === 'modern') {
    const version = params?._meta?.[PROTOCOL_VERSION_META_KEY];
    return typeof version === 'string' ? version : (declared ?? 'unknown');
  }
  if (message.method === 'initialize' && typeof params?.protocolVersion === 'string')
    return params.protocolVersion;
  // A 2025 request without the header speaks the version the spec assumes for it.
  return declared ?? DEFAULT_NEGOTIATED_PROTOCOL_VERSION;
}

import {
  createMcpHandler,
  DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
  isLegacyRequest,
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
 * The branch is the SDK's own `isLegacyRequest`, so it never disagrees with the handler.
 */

/**
 * What `isLegacyRequest` reads of a request whose body is already parsed: the method and the
 * three MCP headers. The probe it is given carries exactly those, so classifying costs no copy
 * of the other headers and no second serialisation of the body (`toWebRequest` does both; on
 * the 2026-07-28 path it was a sixth of a call's CPU). tests/mcp/era-classification.test.ts
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

const META_VERSION = 'io.modelcontextprotocol/protocolVersion';

export interface EraRouter {
  /** Which era the request speaks, by the SDK's classification. */
  classify(req: Request, message: JsonRpcMessage): Promise<Era>;
  serve(era: Era, mode: ResponseMode, req: Request, res: Response, message: JsonRpcMessage): Promise<void>;
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

  return {
    async classify(req, message) {
      return (await isLegacyRequest(classificationProbe(req), message)) ? 'legacy' : 'modern';
    },
    async serve(era, mode, req, res, message) {
      if (era === 'modern') {
        await sdk(req, res, message);
        return;
      }
      req.headers.accept = ACCEPT_BOTH;
      if (mode === 'json') await serveLegacyJson(req, res, message);
      else await sdk(req, res, message);
    },
  };
}

/** The protocol version a request speaks, for the access log and the metrics. */
export function protocolVersionOf(era: Era, req: Request, message: JsonRpcMessage): string {
  const header = req.headers['mcp-protocol-version'];
  const declared = typeof header === 'string' ? header : undefined;
  const params = message.params as { protocolVersion?: unknown; _meta?: Record<string, unknown> } | undefined;
  if (era === 'modern') {
    const version = params?._meta?.[META_VERSION];
    return typeof version === 'string' ? version : (declared ?? 'unknown');
  }
  if (message.method === 'initialize' && typeof params?.protocolVersion === 'string')
    return params.protocolVersion;
  // A 2025 request without the header speaks the version the spec assumes for it.
  return declared ?? DEFAULT_NEGOTIATED_PROTOCOL_VERSION;
}

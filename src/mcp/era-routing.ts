import {
  classifyInboundRequest,
  createMcpHandler,
  DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
  legacyStatelessFallback,
  PROTOCOL_VERSION_META_KEY,
  WebStandardStreamableHTTPServerTransport,
  type McpServerFactory,
} from '@modelcontextprotocol/server';
import { toNodeHandler, type NodeIncomingMessageLike } from '@modelcontextprotocol/node';
import type { Request, Response } from 'express';
import { handOver, type Era, type JsonRpcMessage, type ResolvedRequest } from './resolved-request';

/**
 * Both protocol eras on one URL, and the one place where our edge adapts to the SDK.
 *
 * The era is decided once, by the SDK's own classifier (`eraOf`), and each era goes to its
 * leg:
 * - 2026-07-28 requests (they carry the per-request `_meta` envelope) go to the SDK's
 *   `createMcpHandler`: the envelope, `server/discover` and the era's own errors are the SDK's.
 * - 2025-era requests answered as SSE go to the SDK's stateless legacy leg
 *   (`legacyStatelessFallback`, the leg `createMcpHandler` itself uses for that era).
 * - 2025-era requests that accept only `application/json` go to a stateless
 *   `WebStandardStreamableHTTPServerTransport` with `enableJsonResponse`: one plain JSON body,
 *   as this endpoint has always answered them. The SDK's handler has no such mode for that era.
 *
 * Each leg is given a view of the request (`sdkRequest`) instead of the request itself, so the
 * resolved caller and the Accept the SDK needs are handed over without writing to the request.
 */

/** What the spec asks a client to accept, and what the SDK's 2025 transports insist on. */
export const ACCEPT_BOTH = 'application/json, text/event-stream';

/**
 * Which era a request speaks: the SDK's `classifyInboundRequest`, the step its
 * `isLegacyRequest` and `createMcpHandler` run, given the parsed message and the three MCP
 * headers directly (no web `Request` to build). Its ladder rejections are the modern leg's to
 * answer, as `isLegacyRequest` routes them. tests/mcp/era-routing.test.ts holds it against
 * `isLegacyRequest` over a corpus of requests, so an SDK that starts reading more is caught.
 */
export function eraOf(req: Request, message: JsonRpcMessage): Era {
  const { 'mcp-protocol-version': version, 'mcp-method': method, 'mcp-name': name } = req.headers;
  const outcome = classifyInboundRequest({
    httpMethod: req.method,
    ...(typeof version === 'string' ? { protocolVersionHeader: version } : {}),
    ...(typeof method === 'string' ? { mcpMethodHeader: method } : {}),
    ...(typeof name === 'string' ? { mcpNameHeader: name } : {}),
    body: message,
  });
  return outcome.kind === 'legacy' ? 'legacy' : 'modern';
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

/**
 * What a leg reads of the request: its method, address and headers, the resolved caller as
 * the SDK's `AuthInfo`, and the body already parsed (passed beside it, so the stream is never
 * read). The SDK's 2025 transports answer 406 unless Accept lists both JSON and SSE, whatever
 * `enableJsonResponse` says; once the edge has settled what the client gets (SSE for the
 * spec's pair, `*\/*`, `text/*` or no Accept; JSON for `application/json` alone), a 2025 leg
 * is shown the pair.
 */
export function sdkRequest(req: Request, resolved: ResolvedRequest): NodeIncomingMessageLike {
  const showPair = resolved.era === 'legacy' && !resolved.accept.listsBoth;
  return {
    method: req.method,
    url: req.url,
    headers: showPair ? { ...req.headers, accept: ACCEPT_BOTH } : req.headers,
    auth: handOver(resolved),
    [Symbol.asyncIterator]: () => req[Symbol.asyncIterator](),
  };
}

export type EraRouter = (resolved: ResolvedRequest, req: Request, res: Response) => Promise<void>;

export function createEraRouter(factory: McpServerFactory, onerror: (error: Error) => void): EraRouter {
  const modern = toNodeHandler(createMcpHandler(factory, { onerror }), { onerror });
  const legacySse = toNodeHandler({ fetch: legacyStatelessFallback(factory, onerror) }, { onerror });
  const legacyJson = toNodeHandler(
    {
      async fetch(request, options) {
        const authInfo = options?.authInfo;
        const server = await factory({ era: 'legacy', ...(authInfo ? { authInfo } : {}) });
        const transport = new WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: undefined,
          enableJsonResponse: true,
        });
        // A finished exchange holds nothing to release; closing it anyway would only build a
        // "Connection closed" error with its stack for requests that no longer exist. A client
        // that leaves mid-call has its handler aborted.
        request.signal.addEventListener(
          'abort',
          () => {
            void transport.close();
            void server.close();
          },
          { once: true },
        );
        await server.connect(transport);
        return transport.handleRequest(request, {
          ...(authInfo ? { authInfo } : {}),
          parsedBody: options?.parsedBody,
        });
      },
    },
    { onerror },
  );

  return async (resolved, req, res) => {
    const leg = resolved.era === 'modern' ? modern : resolved.accept.mode === 'json' ? legacyJson : legacySse;
    await leg(sdkRequest(req, resolved), res, resolved.message);
  };
}

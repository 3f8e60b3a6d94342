import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import type { DomainDeps } from '../domain/deps';
import { runChain } from '../http/chain';
import { jsonBody } from '../http/json-body';
import type { Metrics } from '../http/metrics';
import { clientErrorOf } from '../http/client-errors';
import { sendProblem } from '../http/problem';
import type { Logger } from '../logger';
import { resolveRequest, sendJsonRpcError, sendJsonRpcErrorInBand, unknownToolText } from './edge-checks';
import { ACCEPT_BOTH, createEraRouter, type EraRouter } from './era-routing';
import type { ToolRegistry } from './registry';
import { createServerFactory } from './server-factory';

/**
 * POST /api/mcp. Our edge answers what it can answer better than the SDK (a malformed Host,
 * authentication, rate limits, body errors, a malformed message, an unknown tool, a missing
 * scope), then the SDK v2 serves the request in the era it speaks (see era-routing.ts): one
 * fresh McpServer per request, stateless, `initialize` optional.
 */
export interface McpEndpointOptions {
  path: string;
  registry: ToolRegistry;
  deps: DomainDeps;
  logger: Logger;
  maxBodyBytes: number;
  /** Runs before the body is read: authentication, then rate limiting. */
  guards: RequestHandler[];
  metrics?: Metrics;
  /** The MCP App view's built HTML (see apps/quiz-app-resource.ts). */
  quizAppHtml?: string | undefined;
}

export function mcpEndpoint(options: McpEndpointOptions): RequestHandler {
  const { path, registry, deps, logger, maxBodyBytes, guards, metrics, quizAppHtml } = options;
  const baseUrl = deps.baseUrl;
  const factory = createServerFactory({ registry, deps, logger, metrics, quizAppHtml });
  const router = createEraRouter(factory, (error) =>
    logger.warn({ err: error }, 'MCP SDK reported an error'),
  );
  const serve = serveMessage({ registry, baseUrl, router, logger, metrics });

  const chain: RequestHandler[] = [...guards, jsonBody({ limit: maxBodyBytes }), serve];
  const bodyErrors = bodyErrorHandler(baseUrl, maxBodyBytes);
  return (req, res, next) => {
    if (req.path !== path && req.path !== `${path}/`) {
      next();
      return;
    }
    res.locals.route = path;
    if (req.method !== 'POST') {
      methodNotAllowed(res, baseUrl);
      return;
    }
    runChain(chain, req, res, (error) => {
      if (error === undefined) next();
      else bodyErrors(error, req, res, next);
    });
  };
}

/**
 * The last step, once the caller is known and the body read: resolve the request once (the
 * checks, the tool, the era), count it, answer an unknown tool in band, then hand the resolved
 * request to the SDK in its era.
 */
function serveMessage(context: {
  registry: ToolRegistry;
  baseUrl: string;
  router: EraRouter;
  logger: Logger;
  metrics: Metrics | undefined;
}): RequestHandler {
  const { registry, baseUrl, router, logger, metrics } = context;
  return async (req, res) => {
    const resolved = resolveRequest(req, res, { registry, baseUrl });
    if (!resolved) return;
    const { message, era, toolCall } = resolved;
    metrics?.observeMcpRequest(era, resolved.protocolVersion);

    if (toolCall && !toolCall.tool) {
      metrics?.observeToolCall('(unknown)', 'unknown');
      // As the 2026-07-28 leg answers a JSON-RPC error: one JSON body, whatever the client accepts.
      const framing = era === 'modern' ? 'json' : resolved.accept.mode;
      sendJsonRpcErrorInBand(res, framing, message.id, -32602, unknownToolText(toolCall.name, registry));
      return;
    }
    try {
      await router(resolved, req, res);
    } catch (error) {
      logger.error({ err: error, requestId: resolved.requestId }, 'MCP transport failed');
      if (res.headersSent) res.destroy();
      else
        sendJsonRpcError(
          res,
          500,
          -32603,
          `Internal error; report request id ${resolved.requestId}.`,
          message.id ?? null,
        );
    }
  };
}

function methodNotAllowed(res: Response, baseUrl: string): void {
  res.set('Allow', 'POST');
  sendProblem(res, baseUrl, 'method_not_allowed', {
    detail:
      'The MCP endpoint takes POST only: this service runs the Streamable HTTP transport without sessions or server-sent notifications.',
    hint: `POST a JSON-RPC request with "Accept: ${ACCEPT_BOTH}".`,
  });
}

/** A body the reader refused: JSON-RPC's parse error where the text is at fault, else a problem. */
function bodyErrorHandler(baseUrl: string, maxBodyBytes: number): ErrorRequestHandler {
  return (error: unknown, _req, res, next) => {
    const client = clientErrorOf(error, { limitBytes: maxBodyBytes });
    if (!client) return next(error);
    if (client.kind === 'too_large' || client.kind === 'unsupported_encoding') {
      sendProblem(res, baseUrl, client.problem, {
        detail: client.reason,
        hint:
          client.kind === 'too_large'
            ? 'Send a smaller request: fewer or shorter questions per call.'
            : 'Send Content-Type: application/json with a UTF-8 body.',
      });
      return;
    }
    if (client.kind === 'too_deep') {
      sendJsonRpcError(res, 400, -32600, `Invalid Request: ${client.reason} Send flatter JSON.`);
      return;
    }
    const what =
      client.kind === 'not_json' || client.kind === 'not_utf8'
        ? client.reason
        : `${client.reason} Check Content-Encoding and Content-Length.`;
    sendJsonRpcError(res, 400, -32700, `Parse error: ${what} Send one JSON-RPC 2.0 object.`);
  };
}

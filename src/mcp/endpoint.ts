import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import type { DomainDeps } from '../domain/deps';
import { isDatabaseUnavailable } from '../db/errors';
import { sendInsufficientScope } from '../oauth/insufficient-scope';
import type { Metrics } from '../http/metrics';
import { runChain } from '../http/chain';
import { jsonBody } from '../http/json-body';
import { sendProblem } from '../http/problem';
import type { Logger } from '../logger';
import { SERVER_NAME, TOOLSET_VERSION } from '../version';
import type { ToolRegistry } from './registry';
import { installSdkGuardPreChecks } from './sdk-guards';
import type { Principal } from './tool';

/**
 * POST /api/mcp: the SDK's Streamable HTTP transport in stateless mode (DESIGN.md section 3).
 * The SDK needs a fresh Server and transport per request; what can be shared is made once:
 * the tool table with its JSON Schemas, and one JSON Schema validator (by default every
 * Server would compile its own Ajv instance, which dominated the per-request cost).
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
}

const SHARED_VALIDATOR = new AjvJsonSchemaValidator();
const SERVER_INFO = { name: SERVER_NAME, version: TOOLSET_VERSION };
const BOTH = 'application/json, text/event-stream';

function jsonRpcError(
  res: Response,
  status: number,
  code: number,
  message: string,
  id: unknown = null,
): void {
  res.status(status).json({ jsonrpc: '2.0', id, error: { code, message } });
}

/**
 * The spec asks for `Accept: application/json, text/event-stream`. curl sends `*\/*` and
 * some scripts send nothing: both get the spec's SSE answer. A client that accepts only
 * JSON gets a plain JSON answer. Anything else cannot be served.
 */
function negotiate(req: Request): 'sse' | 'json' | 'none' {
  const accept = (req.headers.accept ?? '').toLowerCase();
  if (
    accept === '' ||
    accept.includes('text/event-stream') ||
    accept.includes('text/*') ||
    accept.includes('*/*')
  ) {
    return 'sse';
  }
  if (accept.includes('application/json') || accept.includes('application/*')) return 'json';
  return 'none';
}

function isJsonRpcRequest(
  body: unknown,
): body is { jsonrpc: '2.0'; method: string; id?: unknown; params?: unknown } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return false;
  const message = body as Record<string, unknown>;
  return (
    message.jsonrpc === '2.0' &&
    typeof message.method === 'string' &&
    (message.params === undefined || (typeof message.params === 'object' && message.params !== null)) &&
    (message.id === undefined || typeof message.id === 'string' || typeof message.id === 'number')
  );
}

/** What is wrong with a tools/call's params, in words, before the SDK sees them (it would only say "Internal error"). */
function toolCallParamsProblem(body: { method: string; params?: unknown }): string | undefined {
  if (body.method !== 'tools/call') return undefined;
  const params = body.params as { name?: unknown; arguments?: unknown } | undefined;
  if (!params || typeof params.name !== 'string' || params.name === '') {
    return 'params.name must be the name of the tool to call (a string), e.g. {"name": "list_quizzes", "arguments": {}}.';
  }
  const args = params.arguments;
  if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args))) {
    return 'params.arguments must be an object of named arguments (or left out), e.g. {"quiz_id": "my-quiz"}.';
  }
  return undefined;
}

/**
 * What the SDK's web-standard transport reads of a request when the body comes parsed:
 * method, url, and headers through get() and entries() (SDK 1.32.2, pinned; the MCP suites
 * drive every path through it). A full fetch Request costs ~5% of an MCP call's throughput
 * for headers this service has already parsed. Accept is the spec's pair: negotiate() has
 * settled what the client gets, and enableJsonResponse carries that choice to the transport.
 */
class TransportRequest {
  readonly method = 'POST';
  readonly url: string;
  readonly headers: Pick<Headers, 'get' | 'entries'>;

  constructor(req: Request) {
    const headers = new Map<string, string>();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    headers.set('accept', BOTH);
    this.url = `http://${req.headers.host ?? 'localhost'}${req.originalUrl}`;
    this.headers = {
      get: (name: string) => headers.get(name.toLowerCase()) ?? null,
      entries: () => headers.entries(),
    };
  }
}

/** Writes the transport's answer: status, headers, then the body as it comes (SSE events, or one JSON text). */
async function sendWebResponse(response: globalThis.Response, res: Response): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => res.setHeader(name, value));
  if (!response.body) {
    res.end();
    return;
  }
  // A client that leaves closes the transport (see handle), which ends this stream.
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!res.writableEnded && !res.destroyed) res.write(value);
  }
  if (!res.writableEnded && !res.destroyed) res.end();
}

export function mcpEndpoint(options: McpEndpointOptions): RequestHandler {
  const { path, registry, deps, logger, maxBodyBytes, guards, metrics } = options;
  installSdkGuardPreChecks();

  const handle: RequestHandler = async (req, res) => {
    const body: unknown = req.body;
    if (body === undefined && !req.is('application/json')) {
      sendProblem(res, deps.baseUrl, 'unsupported_media_type', {
        detail: `The body must be JSON; the request says Content-Type: ${req.headers['content-type'] ?? '(none)'}.`,
        hint: 'Send "Content-Type: application/json".',
      });
      return;
    }
    if (!isJsonRpcRequest(body)) {
      jsonRpcError(
        res,
        400,
        -32600,
        'Invalid Request: send one JSON-RPC 2.0 object: {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}. ' +
          'Check jsonrpc (must be "2.0"), id (string or number), method (string) and params (object).',
        (body as { id?: unknown } | undefined)?.id ?? null,
      );
      return;
    }
    const paramsProblem = toolCallParamsProblem(body);
    if (paramsProblem) {
      jsonRpcError(res, 400, -32602, `Invalid params: ${paramsProblem}`, body.id ?? null);
      return;
    }
    const mode = negotiate(req);
    if (mode === 'none') {
      sendProblem(res, deps.baseUrl, 'not_acceptable', {
        detail: `This endpoint answers with text/event-stream (or application/json); the request accepts only "${req.headers.accept}".`,
        hint: `Send "Accept: ${BOTH}".`,
      });
      return;
    }

    const principal = res.locals.principal as Principal;
    const requestId = String(res.locals.requestId ?? '');
    if (body.method === 'tools/call') {
      const name = (body.params as { name?: unknown } | undefined)?.name;
      // OAuth tokens carry scopes; each tool declares the one it needs (DESIGN.md section 4).
      const needed = typeof name === 'string' ? registry.tools.get(name)?.scope : undefined;
      if (needed && !principal.scopes.has(needed)) {
        sendInsufficientScope(res, deps.baseUrl, needed, principal.scopes);
        return;
      }
      const deprecation = typeof name === 'string' ? registry.tools.get(name)?.deprecation : undefined;
      if (deprecation) {
        // Set before the transport commits the response head (spec, Versioning 5).
        // RFC 9745: `Deprecation: @<unix seconds>` (when it was deprecated); RFC 8594 Sunset.
        res.setHeader('Deprecation', `@${Math.floor(Date.parse(`${deprecation.since}T00:00:00Z`) / 1000)}`);
        res.setHeader('Sunset', new Date(`${deprecation.sunset}T00:00:00Z`).toUTCString());
        res.setHeader(
          'Link',
          `<${deps.baseUrl}/en/docs/api-reference#tool-${deprecation.replacement}>; rel="successor-version"`,
        );
      }
    }

    const server = new Server(SERVER_INFO, {
      capabilities: { tools: {} },
      jsonSchemaValidator: SHARED_VALIDATOR,
    });
    server.setRequestHandler(ListToolsRequestSchema, () => registry.listing);
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const name = request.params.name;
      res.locals.tool = name;
      const onInternalError = (error: unknown) => {
        if (isDatabaseUnavailable(error)) {
          logger.warn({ err: error, requestId, tool: name }, 'database unavailable');
          return `The service cannot reach its database right now, so ${name} did not run and nothing was changed. Try again in a few seconds.`;
        }
        logger.error({ err: error, requestId, tool: name }, 'tool failed');
        return (
          `The service could not complete ${name} because of an internal error; nothing is known to have changed. ` +
          `Try again in a moment. If it keeps failing, report request id ${requestId}.`
        );
      };
      try {
        const result = await registry.call(
          name,
          request.params.arguments,
          { deps, principal },
          onInternalError,
        );
        metrics?.observeToolCall(name, result.isError ? 'error' : 'ok');
        return result;
      } catch (error) {
        metrics?.observeToolCall(registry.tools.has(name) ? name : '(unknown)', 'unknown');
        throw error;
      }
    });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: mode === 'json',
    });
    res.on('close', () => {
      // A finished exchange leaves nothing to release (the stream closed itself once the
      // response was sent); closing then would only build a "Connection closed" error to
      // reject requests that no longer exist. A client gone mid-call aborts the handlers.
      if (res.writableFinished) return;
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      const response = await transport.handleRequest(
        new TransportRequest(req) as unknown as globalThis.Request,
        {
          parsedBody: body,
        },
      );
      await sendWebResponse(response, res);
    } catch (error) {
      logger.error({ err: error, requestId }, 'MCP transport failed');
      if (!res.headersSent)
        jsonRpcError(res, 500, -32603, `Internal error; report request id ${requestId}.`, body.id ?? null);
      else res.destroy();
    }
  };

  const bodyErrors: ErrorRequestHandler = (error: { type?: string; status?: number }, _req, res, next) => {
    if (error.type === 'entity.parse.failed') {
      jsonRpcError(
        res,
        400,
        -32700,
        'Parse error: the body is not valid JSON. Send one JSON-RPC 2.0 object.',
      );
      return;
    }
    if (error.type === 'entity.too.large') {
      sendProblem(res, deps.baseUrl, 'payload_too_large', {
        detail: `The body is larger than ${maxBodyBytes} bytes.`,
        hint: 'Send a smaller request: fewer or shorter questions per call.',
      });
      return;
    }
    if (error.type === 'encoding.unsupported' || error.type === 'charset.unsupported') {
      sendProblem(res, deps.baseUrl, 'unsupported_media_type', {
        detail: 'The body must be UTF-8 JSON.',
        hint: 'Send Content-Type: application/json with a UTF-8 body.',
      });
      return;
    }
    if (typeof error.status === 'number' && error.status >= 400 && error.status < 500) {
      // Any other body-reading failure (bad Content-Encoding, truncated body) is the client's.
      jsonRpcError(
        res,
        400,
        -32700,
        'Parse error: the body could not be read (check Content-Encoding and Content-Length).',
      );
      return;
    }
    next(error);
  };

  const chain: RequestHandler[] = [...guards, jsonBody({ limit: maxBodyBytes }), handle];
  const methodNotAllowed = (res: Response) => {
    res.set('Allow', 'POST');
    sendProblem(res, deps.baseUrl, 'method_not_allowed', {
      detail:
        'The MCP endpoint takes POST only: this service runs the Streamable HTTP transport without sessions or server-sent notifications.',
      hint: `POST a JSON-RPC request with "Accept: ${BOTH}".`,
    });
  };
  // One handler for the one path, run ahead of every other router: the busiest route of the
  // service should not walk the route tables of the pages and the docs on every call.
  return (req, res, next) => {
    if (req.path !== path && req.path !== `${path}/`) {
      next();
      return;
    }
    res.locals.route = path;
    if (req.method !== 'POST') {
      methodNotAllowed(res);
      return;
    }
    runChain(chain, req, res, (error) => {
      if (error === undefined) next();
      else bodyErrors(error, req, res, next);
    });
  };
}

import type { Request, Response } from 'express';
import { sendProblem } from '../http/problem';
import { sendInsufficientScope } from '../http/insufficient-scope';
import { baseUrlFor } from '../http/loopback-origin';
import type { ToolRegistry } from './registry';

/**
 * What our edge settles about an MCP request before the SDK sees it, each in words that say
 * what to fix: the media type (415), the JSON-RPC shape (-32600), a tools/call's params and
 * tool name (-32602), what the client accepts (406), and, for a tool, the OAuth scope it needs
 * (403) and its deprecation headers. Whatever else is wrong with a message is the SDK's to
 * answer, in its own JSON-RPC words.
 */
export interface JsonRpcMessage {
  jsonrpc: '2.0';
  method: string;
  id?: string | number;
  params?: Record<string, unknown>;
}

/** How a 2025-era client gets its answer: SSE events, or one plain JSON body. */
export type ResponseMode = 'sse' | 'json';

export const ACCEPT_BOTH = 'application/json, text/event-stream';

export function isJsonRpcMessage(body: unknown): body is JsonRpcMessage {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return false;
  const message = body as Record<string, unknown>;
  return (
    message.jsonrpc === '2.0' &&
    typeof message.method === 'string' &&
    (message.params === undefined ||
      (typeof message.params === 'object' && message.params !== null && !Array.isArray(message.params))) &&
    (message.id === undefined || typeof message.id === 'string' || typeof message.id === 'number')
  );
}

/** A JSON-RPC error our edge answers itself, as a plain JSON body. */
export function sendJsonRpcError(
  res: Response,
  status: number,
  code: number,
  message: string,
  id: unknown = null,
) {
  res.status(status).json({ jsonrpc: '2.0', id, error: { code, message } });
}

/**
 * The spec asks for `Accept: application/json, text/event-stream`. curl sends `*\/*` and some
 * scripts send nothing: both get the spec's SSE answer. A client that accepts only JSON gets a
 * plain JSON answer. Anything else cannot be served.
 */
export function negotiate(req: Request): ResponseMode | undefined {
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
  return undefined;
}

/** What is wrong with a tools/call's params, in words, before the SDK sees them. */
function toolCallParamsProblem(message: JsonRpcMessage): string | undefined {
  if (message.method !== 'tools/call') return undefined;
  const params = message.params as { name?: unknown; arguments?: unknown } | undefined;
  if (!params || typeof params.name !== 'string' || params.name === '') {
    return 'params.name must be the name of the tool to call (a string), e.g. {"name": "list_quizzes", "arguments": {}}.';
  }
  const args = params.arguments;
  if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args))) {
    return 'params.arguments must be an object of named arguments (or left out), e.g. {"quiz_id": "my-quiz"}.';
  }
  return undefined;
}

/** For a tools/call of a tool that does not exist: the error that lists the tools there are. */
export function unknownToolProblem(message: JsonRpcMessage, registry: ToolRegistry): string | undefined {
  if (message.method !== 'tools/call') return undefined;
  const name = (message.params as { name: string }).name;
  return registry.tools.has(name) ? undefined : `Unknown tool "${name}". The tools are: ${registry.names}.`;
}

/**
 * A JSON-RPC error delivered as the SDK delivers a handler's: HTTP 200, framed as the client
 * gets its answers (one SSE event, or a JSON body). Clients show such an error to the model;
 * a 4xx would reach it as a transport failure without the text.
 */
export function sendJsonRpcErrorInBand(
  res: Response,
  framing: ResponseMode,
  id: unknown,
  code: number,
  text: string,
): void {
  const body = JSON.stringify({ jsonrpc: '2.0', id: id ?? null, error: { code, message: text } });
  if (framing === 'json') {
    res.status(200).type('application/json').send(body);
    return;
  }
  res.status(200).set('Content-Type', 'text/event-stream').set('Cache-Control', 'no-cache');
  res.end(`event: message\ndata: ${body}\n\n`);
}

/**
 * Runs the checks in order; answers the first failure and returns undefined, or returns the
 * message and the response mode the client gets.
 */
export function checkMessage(
  req: Request,
  res: Response,
  options: { registry: ToolRegistry; baseUrl: string },
): { message: JsonRpcMessage; mode: ResponseMode } | undefined {
  const body: unknown = req.body;
  if (body === undefined && !req.is('application/json')) {
    sendProblem(res, options.baseUrl, 'unsupported_media_type', {
      detail: `The body must be JSON; the request says Content-Type: ${req.headers['content-type'] ?? '(none)'}.`,
      hint: 'Send "Content-Type: application/json".',
    });
    return undefined;
  }
  if (!isJsonRpcMessage(body)) {
    sendJsonRpcError(
      res,
      400,
      -32600,
      'Invalid Request: send one JSON-RPC 2.0 object: {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}. ' +
        'Check jsonrpc (must be "2.0"), id (string or number), method (string) and params (object).',
      (body as { id?: unknown } | undefined)?.id ?? null,
    );
    return undefined;
  }
  const paramsProblem = toolCallParamsProblem(body);
  if (paramsProblem) {
    sendJsonRpcError(res, 400, -32602, `Invalid params: ${paramsProblem}`, body.id ?? null);
    return undefined;
  }
  const mode = negotiate(req);
  if (!mode) {
    sendProblem(res, options.baseUrl, 'not_acceptable', {
      detail: `This endpoint answers with text/event-stream (or application/json); the request accepts only "${req.headers.accept}".`,
      hint: `Send "Accept: ${ACCEPT_BOTH}".`,
    });
    return undefined;
  }
  return { message: body, mode };
}

/**
 * For a tools/call: the scope an OAuth token needs for this tool (403 without it), and the
 * headers of a deprecated tool, set before the transport commits the response head.
 * Returns false when it has answered.
 */
export function checkTool(
  res: Response,
  message: JsonRpcMessage,
  options: { registry: ToolRegistry; baseUrl: string },
): boolean {
  if (message.method !== 'tools/call') return true;
  const name = (message.params as { name: string }).name;
  const tool = options.registry.tools.get(name);
  if (!tool) return true;
  res.locals.tool = name;
  const principal = res.locals.principal;
  if (principal && !principal.scopes.has(tool.scope)) {
    sendInsufficientScope(res, baseUrlFor(res.req, options.baseUrl), tool.scope, principal.scopes);
    return false;
  }
  const deprecation = tool.deprecation;
  if (deprecation) {
    // RFC 9745: `Deprecation: @<unix seconds>` (when it was deprecated); RFC 8594 Sunset.
    res.setHeader('Deprecation', `@${Math.floor(Date.parse(`${deprecation.since}T00:00:00Z`) / 1000)}`);
    res.setHeader('Sunset', new Date(`${deprecation.sunset}T00:00:00Z`).toUTCString());
    res.setHeader(
      'Link',
      `<${options.baseUrl}/en/docs/api-reference#tool-${deprecation.replacement}>; rel="successor-version"`,
    );
  }
  return true;
}

import type { Request, Response } from 'express';
import { sendProblem } from '../http/problem';
import { sendInsufficientScope } from '../http/insufficient-scope';
import { bearerCredential } from '../http/authenticate';
import { baseUrlFor } from '../http/loopback-origin';
import type { Principal } from '../identity/principal';
import { ACCEPT_BOTH, eraOf, protocolVersionOf } from './era-routing';
import type { ToolEntry, ToolRegistry } from './registry';
import type { JsonRpcMessage, ResolvedRequest, ResponseMode } from './resolved-request';
import { chooseToolsets, TOOLSET_NAMES, TOOLSETS_HEADER, TOOLSETS_QUERY, toolsetsQuery } from './toolsets';

/**
 * What our edge settles about an MCP request before the SDK sees it, each in words that say
 * what to fix: the media type (415), the JSON-RPC shape (-32600), a tools/call's params
 * (-32602), what the client accepts (406), and, for a tool, the OAuth scope it needs (403) and
 * its deprecation headers. Whatever else is wrong with a message is the SDK's to answer, in
 * its own JSON-RPC words. What it settles becomes one `ResolvedRequest`.
 */

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
 * plain JSON answer. Anything else cannot be served. Also says whether the header already
 * lists both types, which the SDK's 2025 transports insist on (era-routing.ts).
 */
export function negotiate(acceptHeader: string | undefined): ResolvedRequest['accept'] | undefined {
  const accept = (acceptHeader ?? '').toLowerCase();
  const json = accept.includes('application/json');
  const sse = accept.includes('text/event-stream');
  if (accept === '' || sse || accept.includes('text/*') || accept.includes('*/*')) {
    return { mode: 'sse', listsBoth: json && sse };
  }
  if (json || accept.includes('application/*')) return { mode: 'json', listsBoth: false };
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

/** The error for a tools/call of a tool that does not exist: it lists the tools there are. */
export function unknownToolText(name: string, registry: ToolRegistry): string {
  return `Unknown tool "${name}". The tools are: ${registry.names}.`;
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
 * Runs the checks in order and resolves the request once: answers the first failure and
 * returns undefined, or returns what the rest of the endpoint needs. A tools/call of an
 * unknown tool resolves (its `toolCall.tool` is undefined): it is answered in band, in its era.
 */
export function resolveRequest(
  req: Request,
  res: Response,
  options: { registry: ToolRegistry; baseUrl: string },
): ResolvedRequest | undefined {
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
  const accept = negotiate(req.headers.accept);
  if (!accept) {
    sendProblem(res, options.baseUrl, 'not_acceptable', {
      detail: `This endpoint answers with text/event-stream (or application/json); the request accepts only "${req.headers.accept}".`,
      hint: `Send "Accept: ${ACCEPT_BOTH}".`,
    });
    return undefined;
  }
  const principal = res.locals.principal;
  if (!principal) throw new Error('the MCP endpoint ran without an authenticated caller');

  let toolCall: ResolvedRequest['toolCall'];
  if (body.method === 'tools/call') {
    const name = (body.params as { name: string }).name;
    const tool = options.registry.find(name);
    toolCall = { name, tool };
    if (tool) {
      res.locals.logFields = { tool: name };
      if (!checkTool(res, tool, principal, options.baseUrl)) return undefined;
    }
  }
  const era = eraOf(req, body);
  const toolsets = toolsetsOf(req, res, options.baseUrl, { era, accept, id: body.id, method: body.method });
  if (!toolsets) return undefined;
  const protocolVersion = protocolVersionOf(era, req, body);
  res.locals.logFields = { ...res.locals.logFields, era, protocolVersion };
  return {
    message: body,
    era,
    protocolVersion,
    accept,
    principal,
    credential: bearerCredential(req) ?? '',
    requestId: res.locals.requestId ?? '',
    toolsets,
    ...(toolCall ? { toolCall } : {}),
  };
}

/**
 * The toolsets of `?toolsets=` and `X-MCP-Toolsets`, or an error that names the valid ones: a
 * connector URL with a misspelt toolset fails when it connects, not later with a tool missing.
 * It is a JSON-RPC error in band, as an unknown tool's is: clients show its text to the person
 * (a 400 reaches the 2026-07-28 client's version negotiation as a server that offers nothing).
 * server/discover is answered all the same, for that client fails a discover error in the same
 * words; its first tools/list then shows this one.
 */
function toolsetsOf(
  req: Request,
  res: Response,
  baseUrl: string,
  message: {
    era: ResolvedRequest['era'];
    accept: ResolvedRequest['accept'];
    id: JsonRpcMessage['id'];
    method: string;
  },
): ResolvedRequest['toolsets'] | undefined {
  const query: unknown = req.query[TOOLSETS_QUERY];
  const header = req.get(TOOLSETS_HEADER);
  const sent = [query, header].flat().filter((value): value is string => typeof value === 'string');
  const choice = chooseToolsets(sent);
  if (choice.ok) return choice.toolsets;
  if (message.method === 'server/discover') return new Set();
  const names = choice.unknown.map((name) => `"${name}"`).join(', ');
  const text =
    `No toolset is called ${names}. The toolsets are: ${TOOLSET_NAMES.join(', ')}. ` +
    `Connect to ${baseUrl}/api/mcp${toolsetsQuery(['grading'])} (comma-separated names, or "all"), or name none for the default tools.`;
  sendJsonRpcErrorInBand(
    res,
    message.era === 'modern' ? 'json' : message.accept.mode,
    message.id,
    -32602,
    text,
  );
  return undefined;
}

/**
 * For a tools/call: the scope an OAuth token needs for this tool (403 without it), and the
 * headers of a deprecated tool, set before the transport commits the response head.
 * Returns false when it has answered.
 */
function checkTool(res: Response, tool: ToolEntry, principal: Principal, baseUrl: string): boolean {
  const { scope, deprecation } = tool.definition;
  if (!principal.scopes.has(scope)) {
    sendInsufficientScope(res, baseUrlFor(res.req, baseUrl), scope, principal.scopes);
    return false;
  }
  if (deprecation) {
    // RFC 9745: `Deprecation: @<unix seconds>` (when it was deprecated); RFC 8594 Sunset.
    res.setHeader('Deprecation', `@${Math.floor(Date.parse(`${deprecation.since}T00:00:00Z`) / 1000)}`);
    res.setHeader('Sunset', new Date(`${deprecation.sunset}T00:00:00Z`).toUTCString());
    res.setHeader(
      'Link',
      `<${baseUrl}/en/docs/api-reference#tool-${deprecation.replacement}>; rel="successor-version"`,
    );
  }
  return true;
}

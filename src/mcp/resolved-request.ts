import type { AuthInfo } from '@modelcontextprotocol/server';
import type { Principal } from '../identity/principal';
import type { ToolEntry } from './registry';
import type { ToolsetName } from './toolsets';

/** A JSON-RPC 2.0 message as the edge has checked it: one object, never a batch. */
export interface JsonRpcMessage {
  jsonrpc: '2.0';
  method: string;
  id?: string | number;
  params?: Record<string, unknown>;
}

/** The protocol era, by the SDK's own classification (era-routing.ts). */
export type Era = 'legacy' | 'modern';

/** How the client reads its answer: SSE events, or one plain JSON body. */
export type ResponseMode = 'sse' | 'json';

/**
 * Everything the edge settles about one MCP request, each fact parsed once: the message, its
 * era and protocol version, what the client accepts, who is calling, and for a tools/call the
 * tool it names. The era router and the server factory receive this and read nothing of the
 * request again.
 */
export interface ResolvedRequest {
  message: JsonRpcMessage;
  era: Era;
  protocolVersion: string;
  /** The answer's framing, and whether the Accept header already lists both media types. */
  accept: { mode: ResponseMode; listsBoth: boolean };
  principal: Principal;
  /** The bearer credential as sent, for the SDK's `AuthInfo.token`. */
  credential: string;
  requestId: string;
  /** The toolsets the connection lists beside the default list (the URL's query, the header). */
  toolsets: ReadonlySet<ToolsetName>;
  /**
   * For a tools/call: the name it sends, and the tool of that name (undefined when none
   * exists: the edge answers that itself). Such a request can reach no other tool, so its
   * server registers only this one; every other request (tools/list, initialize,
   * server/discover) gets all of them.
   */
  toolCall?: { name: string; tool: ToolEntry | undefined };
}

/**
 * The SDK passes one value from its caller to the server factory untouched: `authInfo`. The
 * edge's context rides on that object's identity, so the factory gets it back typed, with no
 * field of the SDK's type to cast.
 */
const HANDED_OVER = new WeakMap<AuthInfo, ResolvedRequest>();

/** The SDK's `AuthInfo` for a resolved request, carrying the request to the server factory. */
export function handOver(request: ResolvedRequest): AuthInfo {
  const { credential } = request.principal;
  const authInfo: AuthInfo = {
    token: request.credential,
    clientId: credential.kind === 'oauth' ? credential.clientId : credential.id,
    scopes: [...request.principal.scopes],
  };
  HANDED_OVER.set(authInfo, request);
  return authInfo;
}

/** The resolved request the SDK hands the server factory back. */
export function takeOver(authInfo: AuthInfo | undefined): ResolvedRequest {
  const request = authInfo && HANDED_OVER.get(authInfo);
  // The endpoint resolves every request before the SDK runs; none is a wiring error.
  if (!request) throw new Error('MCP request reached the SDK without a resolved request');
  return request;
}

// The one MCP client helper. The clients that reach /api/mcp in the field, each connected with
// a bearer credential: the v2 Client pinned to 2026-07-28, the v2 Client on its default (the
// 2025 handshake), and the v1 Client that most deployed assistants still run. Each states the
// era it got. A test about tools runs in both eras with `forEachEra`; a test that only needs
// quizzes made (pages, the dashboard) uses `connectClient`.
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
} from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { z } from 'zod';

/** What the tests ask of any client, whichever SDK line it comes from. */
export interface AnyClient {
  kind: ClientKind;
  /** The era and protocol version the connection landed on. */
  era: 'legacy' | 'modern';
  protocolVersion: string | undefined;
  listTools(): Promise<{ tools: ListedTool[] }>;
  listResources(): Promise<{
    resources: Array<{ uri: string; mimeType?: string; _meta?: Record<string, unknown> }>;
  }>;
  readResource(uri: string): Promise<{
    contents: Array<{ uri: string; mimeType?: string; text?: string; _meta?: Record<string, unknown> }>;
  }>;
  listResourceTemplates(): Promise<{ resourceTemplates: Array<{ uriTemplate: string; name: string }> }>;
  callTool(name: string, args?: Record<string, unknown>): Promise<ToolResult>;
  /** What the server advertised (initialize in the 2025 era, server/discover in 2026-07-28). */
  capabilities(): Record<string, any> | undefined;
  instructions(): string | undefined;
  listPrompts(): Promise<{
    prompts: Array<{ name: string; title?: string; arguments?: Array<{ name: string; required?: boolean }> }>;
  }>;
  getPrompt(
    name: string,
    args?: Record<string, string>,
  ): Promise<{ messages: Array<{ role: string; content: { type: string; text?: string } }> }>;
  /** completion/complete for a prompt's argument. */
  completePrompt(
    name: string,
    argument: string,
    value: string,
  ): Promise<{ completion: { values: string[]; total?: number; hasMore?: boolean } }>;
  /** completion/complete for a resource template's variable. */
  completeResource(
    uriTemplate: string,
    argument: string,
    value: string,
  ): Promise<{ completion: { values: string[]; total?: number; hasMore?: boolean } }>;
  /** Any request by method name (for methods the client has no call for, such as skills/list). */
  request(method: string, params?: Record<string, unknown>): Promise<Record<string, any>>;
  /** The v2 Client itself, for the SDK's extension clients (SkillsClient); undefined for v1. */
  sdkV2: ClientV2 | undefined;
  close(): Promise<void>;
}

/** Any JSON object as a result: the tests check its shape themselves. */
const ANY_RESULT = z.looseObject({});

/** A tool as `tools/list` shows it, in terms both SDK lines' types satisfy. */
export interface ListedTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: { type: 'object'; properties?: Record<string, unknown>; required?: string[] };
  outputSchema?: Record<string, unknown>;
  annotations?: {
    title?: string;
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint?: boolean;
  };
  _meta?: Record<string, unknown>;
}

export interface ToolResult {
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export type ClientKind = 'v2 pinned to 2026-07-28' | 'v2 default (2025)' | 'v1 (2025)';
export const CLIENT_KINDS: readonly ClientKind[] = [
  'v2 pinned to 2026-07-28',
  'v2 default (2025)',
  'v1 (2025)',
];

const INFO = { name: 'quiz-tests', version: '1.0.0' };

/** The MCP Apps extension as a host announces it in its capabilities. */
export const APPS_EXTENSION = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } };

export interface ConnectOptions {
  announceApps?: boolean;
  /** The connector URL's `?toolsets=` (e.g. "grading,import", "all"); none: the default list. */
  toolsets?: string;
}

export async function connectAnyClient(
  kind: ClientKind,
  baseUrl: string,
  credential: string,
  options: ConnectOptions = {},
): Promise<AnyClient> {
  const url = new URL(`${baseUrl}/api/mcp`);
  if (options.toolsets) url.searchParams.set('toolsets', options.toolsets);
  const requestInit = { headers: { Authorization: `Bearer ${credential}` } };
  const capabilities = options.announceApps ? { extensions: APPS_EXTENSION } : {};
  if (kind === 'v1 (2025)') {
    const client = new ClientV1(INFO, { capabilities });
    const transport = new TransportV1(url, { requestInit });
    await client.connect(transport);
    return {
      kind,
      era: 'legacy',
      protocolVersion: transport.protocolVersion,
      listTools: () => client.listTools(),
      listResources: () => client.listResources(),
      readResource: (uri) => client.readResource({ uri }),
      listResourceTemplates: () => client.listResourceTemplates(),
      callTool: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as ToolResult,
      capabilities: () => client.getServerCapabilities(),
      instructions: () => client.getInstructions(),
      listPrompts: () => client.listPrompts(),
      getPrompt: async (name, args = {}) => (await client.getPrompt({ name, arguments: args })) as any,
      completePrompt: (name, argument, value) =>
        client.complete({ ref: { type: 'ref/prompt', name }, argument: { name: argument, value } }),
      completeResource: (uri, argument, value) =>
        client.complete({ ref: { type: 'ref/resource', uri }, argument: { name: argument, value } }),
      request: (method, params = {}) => client.request({ method, params } as any, ANY_RESULT as any) as any,
      sdkV2: undefined,
      close: () => client.close(),
    };
  }
  const client = new ClientV2(INFO, {
    capabilities,
    ...(kind === 'v2 pinned to 2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
  });
  await client.connect(new TransportV2(url, { requestInit }));
  const era = client.getProtocolEra();
  if (!era) throw new Error('the v2 client connected without an era');
  return {
    kind,
    era,
    protocolVersion: client.getNegotiatedProtocolVersion(),
    listTools: () => client.listTools(),
    listResources: () => client.listResources(),
    readResource: (uri) => client.readResource({ uri }),
    listResourceTemplates: () => client.listResourceTemplates(),
    callTool: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as ToolResult,
    capabilities: () => client.getServerCapabilities(),
    instructions: () => client.getInstructions(),
    listPrompts: () => client.listPrompts(),
    getPrompt: async (name, args = {}) => (await client.getPrompt({ name, arguments: args })) as any,
    completePrompt: (name, argument, value) =>
      client.complete({ ref: { type: 'ref/prompt', name }, argument: { name: argument, value } }),
    completeResource: (uri, argument, value) =>
      client.complete({ ref: { type: 'ref/resource', uri }, argument: { name: argument, value } }),
    request: (method, params = {}) => client.request({ method, params } as any, ANY_RESULT),
    sdkV2: client,
    close: () => client.close(),
  };
}

/** The era and version each kind must land on against this service. */
export const EXPECTED: Record<ClientKind, { era: 'legacy' | 'modern'; version: string }> = {
  'v2 pinned to 2026-07-28': { era: 'modern', version: '2026-07-28' },
  'v2 default (2025)': { era: 'legacy', version: SUPPORTED_PROTOCOL_VERSIONS[0]! },
  'v1 (2025)': { era: 'legacy', version: '2025-11-25' },
};

/** The payload of a successful call, parsed from content[0].text and checked against structuredContent. */
export function payload<T = Record<string, any>>(result: ToolResult): T {
  if (result.isError) throw new Error(`tool call failed: ${JSON.stringify(result.content)}`);
  const text = result.content[0]?.text;
  if (typeof text !== 'string') throw new Error('no text content');
  const parsed = JSON.parse(text) as T;
  expect(result.structuredContent).toEqual(parsed);
  return parsed;
}

/** The text of an `isError` result (fails the test if the call succeeded). */
export function errorText(result: ToolResult): string {
  if (!result.isError) throw new Error(`expected isError, got ${JSON.stringify(result.structuredContent)}`);
  const item = result.content[0];
  return item && item.type === 'text' ? (item.text ?? '') : '';
}

/** Calls a tool and returns its result; the client has checked structuredContent against outputSchema. */
export function callTool(
  client: AnyClient,
  name: string,
  args: Record<string, unknown> = {},
): Promise<ToolResult> {
  return client.callTool(name, args);
}

/** Where a client connects: a test app or any running service. */
export interface McpTarget {
  baseUrl: string;
}

/** One era a test runs in, and how to connect a client that lands on it. */
export interface EraCase {
  era: 'legacy' | 'modern';
  /** The describe block's title. */
  label: string;
  kind: ClientKind;
  connect(target: McpTarget, credential: string, options?: ConnectOptions): Promise<AnyClient>;
}

/**
 * The two eras, each with one client: the v2 Client pinned to 2026-07-28, and for the 2025 era
 * the v1 Client most deployed assistants run. tests/mcp/both-eras.test.ts runs every kind,
 * the v2 Client's 2025 default included.
 */
export const ERAS: readonly EraCase[] = (
  [
    ['modern', '2026-07-28 era (v2 client)', 'v2 pinned to 2026-07-28'],
    ['legacy', '2025 era (v1 client)', 'v1 (2025)'],
  ] as const
).map(([era, label, kind]) => ({
  era,
  label,
  kind,
  connect: (target, credential, options) => connectAnyClient(kind, target.baseUrl, credential, options),
}));

/** Runs the tests `define` declares once per era, each in its own describe block. */
export function forEachEra(define: (era: EraCase) => void): void {
  describe.each(ERAS)('$label', define);
}

/** A client for tests whose subject is not the protocol (quizzes made for pages, the dashboard). */
export function connectClient(
  target: McpTarget,
  credential: string,
  options: ConnectOptions = {},
): Promise<AnyClient> {
  return connectAnyClient('v1 (2025)', target.baseUrl, credential, options);
}

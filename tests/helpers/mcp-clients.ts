// The MCP clients that reach /api/mcp in the field, each connected with a bearer credential:
// the v2 Client pinned to 2026-07-28, the v2 Client on its default (the 2025 handshake), and
// the v1 Client that most deployed assistants still run. Each states the era it got.
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
} from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';

/** What the tests ask of any client, whichever SDK line it comes from. */
export interface AnyClient {
  kind: ClientKind;
  /** The era and protocol version the connection landed on. */
  era: 'legacy' | 'modern';
  protocolVersion: string | undefined;
  listTools(): Promise<{
    tools: Array<{
      name: string;
      inputSchema: unknown;
      outputSchema?: unknown;
      _meta?: Record<string, unknown>;
    }>;
  }>;
  listResources(): Promise<{
    resources: Array<{ uri: string; mimeType?: string; _meta?: Record<string, unknown> }>;
  }>;
  readResource(uri: string): Promise<{
    contents: Array<{ uri: string; mimeType?: string; text?: string; _meta?: Record<string, unknown> }>;
  }>;
  callTool(name: string, args?: Record<string, unknown>): Promise<ToolResult>;
  close(): Promise<void>;
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

export async function connectAnyClient(
  kind: ClientKind,
  baseUrl: string,
  credential: string,
  options: { announceApps?: boolean } = {},
): Promise<AnyClient> {
  const url = new URL(`${baseUrl}/api/mcp`);
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
      callTool: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as ToolResult,
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
    callTool: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as ToolResult,
    close: () => client.close(),
  };
}

/** The era and version each kind must land on against this service. */
export const EXPECTED: Record<ClientKind, { era: 'legacy' | 'modern'; version: string }> = {
  'v2 pinned to 2026-07-28': { era: 'modern', version: '2026-07-28' },
  'v2 default (2025)': { era: 'legacy', version: SUPPORTED_PROTOCOL_VERSIONS[0]! },
  'v1 (2025)': { era: 'legacy', version: '2025-11-25' },
};

/** The payload of a successful call, from content[0].text, checked against structuredContent. */
export function resultPayload(result: ToolResult): Record<string, any> {
  if (result.isError) throw new Error(`tool call failed: ${JSON.stringify(result.content)}`);
  const text = result.content[0]?.text;
  if (typeof text !== 'string') throw new Error('no text content');
  const parsed = JSON.parse(text) as Record<string, any>;
  expect(result.structuredContent).toEqual(parsed);
  return parsed;
}

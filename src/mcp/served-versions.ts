import {
  SUPPORTED_PROTOCOL_VERSIONS,
  type DiscoverResult,
  type McpServer,
} from '@modelcontextprotocol/server';

/** The 2026-07-28 era's version, which the SDK serves and does not export. */
const MODERN_PROTOCOL_VERSION = '2026-07-28';

/**
 * Every protocol version this URL serves, as server/discover answers them, for what is read
 * before connecting (the server card); tests/mcp/server-card.test.ts holds the two equal.
 */
export const SERVED_PROTOCOL_VERSIONS: readonly string[] = [
  MODERN_PROTOCOL_VERSION,
  ...SUPPORTED_PROTOCOL_VERSIONS.filter((version) => version !== MODERN_PROTOCOL_VERSION),
];

/**
 * `server/discover` names every protocol version this URL serves: the 2026-07-28 era's and the
 * 2025 era's (era-routing.ts serves both). The SDK answers with the 2026-07-28 versions only
 * and has no option to change the list
 * (https://github.com/modelcontextprotocol/typescript-sdk/issues/341), so this is the one place
 * that widens it: the SDK's own answer, with the 2025-era versions after its own. Clients pick
 * from the list the first version they speak, so the 2026-07-28 ones stay first.
 * tests/mcp/capabilities.test.ts fails if the SDK stops calling the method replaced here.
 */
interface DiscoverAnswering {
  _ondiscover(): DiscoverResult;
}

export function discoverEveryServedVersion(server: McpServer): void {
  const sdk = server.server as unknown as DiscoverAnswering;
  const answer = sdk._ondiscover.bind(sdk);
  sdk._ondiscover = () => {
    const result = answer();
    const legacy = SUPPORTED_PROTOCOL_VERSIONS.filter(
      (version) => !result.supportedVersions.includes(version),
    );
    return { ...result, supportedVersions: [...result.supportedVersions, ...legacy] };
  };
}

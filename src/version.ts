/**
 * The tool set's semantic version, served as `info.version` of
 * /openapi.json and as the MCP `serverInfo.version`. Bump it with every change of the
 * public contract and record the change in CHANGELOG.md.
 */
export const TOOLSET_VERSION = '1.29.0';
export const SERVER_NAME = 'quiz-service';

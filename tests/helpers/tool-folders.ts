// The folders under tools/ with their own lock and their own Node 22 (the MCP Inspector, the
// official conformance suite, the client matrix). `npm test` never installs them: `npm run
// tools:install` (and CI, before the tests) does. Suites that need one are skipped visibly when
// it is missing, unless REQUIRE_TOOLS=1 makes them mandatory (CI sets it), as REQUIRE_BROWSER
// does for Chromium.
import fs from 'node:fs';
import path from 'node:path';

const TOOLS_DIR = path.resolve(__dirname, '..', '..', 'tools');

/** Each folder and the files whose presence says it is installed. */
export const TOOL_FOLDERS = {
  inspector: ['node_modules/node/bin/node', 'node_modules/@modelcontextprotocol/inspector/package.json'],
  conformance: ['node_modules/node/bin/node', 'node_modules/@modelcontextprotocol/conformance/package.json'],
  clients: ['node_modules/node/bin/node', 'node_modules/@mastra/mcp/package.json'],
} as const;
export type ToolFolder = keyof typeof TOOL_FOLDERS;

export const toolDir = (folder: ToolFolder) => path.join(TOOLS_DIR, folder);

export function toolInstalled(folder: ToolFolder): boolean {
  return TOOL_FOLDERS[folder].every((file) => fs.existsSync(path.join(toolDir(folder), file)));
}

/** The folders not installed, for the run's opening line. */
export const missingToolFolders = (): ToolFolder[] =>
  (Object.keys(TOOL_FOLDERS) as ToolFolder[]).filter((folder) => !toolInstalled(folder));

export const INSTALL_HINT = 'npm run tools:install';

/** `describe` for a suite that runs a tool folder's programs. */
export function describeWithTool(folder: ToolFolder, name: string, fn: () => void): void {
  if (toolInstalled(folder)) {
    describe(name, fn);
    return;
  }
  if (process.env.REQUIRE_TOOLS === '1') {
    throw new Error(`REQUIRE_TOOLS=1 but tools/${folder} is not installed (${INSTALL_HINT})`);
  }
  describe.skip(
    `${name}: skipped: tools/${folder} is not installed; run ${INSTALL_HINT}, or set REQUIRE_TOOLS=1 to make this suite mandatory`,
    fn,
  );
}

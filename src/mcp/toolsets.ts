/**
 * Toolsets: which tools `tools/list` shows a connection. The default list is what every
 * conversation pays for; a toolset adds its tools when the connector URL asks for it
 * (`/api/mcp?toolsets=grading,import`) or the `X-MCP-Toolsets` header does, as GitHub's MCP
 * server does. The choice changes only the list: `tools/call` takes any tool on any connection.
 *
 * Each tool names its toolset (`toolset` in its `defineTool`, none for the default list);
 * adding a toolset is one line here.
 */
export const TOOLSETS = {
  grading: "essays graded by hand, closing and reopening, the results CSV and QR code, next year's copy",
  import: 'question banks in GIFT, Aiken, Moodle XML, CSV or QTI',
} as const;

export type ToolsetName = keyof typeof TOOLSETS;

/** Lists every toolset's tools. */
export const ALL_TOOLSETS = 'all';

export const TOOLSETS_QUERY = 'toolsets';
export const TOOLSETS_HEADER = 'X-MCP-Toolsets';

/** The toolsets a connection asked for, or the names it sent that are none. */
export type ToolsetChoice =
  { ok: true; toolsets: ReadonlySet<ToolsetName> } | { ok: false; unknown: string[] };

const NAMES = Object.keys(TOOLSETS) as ToolsetName[];

function isToolset(name: string): name is ToolsetName {
  return Object.hasOwn(TOOLSETS, name);
}

/**
 * The toolsets named by the query and the header together (comma-separated; a query sent twice
 * counts each time). `all` names every toolset; `default` names none beyond the default list.
 */
export function chooseToolsets(sent: readonly string[]): ToolsetChoice {
  const chosen = new Set<ToolsetName>();
  const unknown: string[] = [];
  for (const name of sent.flatMap((value) => value.split(',')).map((part) => part.trim().toLowerCase())) {
    if (name === '' || name === 'default') continue;
    if (name === ALL_TOOLSETS) NAMES.forEach((each) => chosen.add(each));
    else if (isToolset(name)) chosen.add(name);
    else unknown.push(name);
  }
  return unknown.length > 0 ? { ok: false, unknown } : { ok: true, toolsets: chosen };
}

/** The names a connection may send, for errors and the instructions. */
export const TOOLSET_NAMES: readonly string[] = [...NAMES, ALL_TOOLSETS];

/** The query that lists these toolsets' tools too, e.g. `?toolsets=grading`. */
export function toolsetsQuery(names: readonly string[]): string {
  return `?${TOOLSETS_QUERY}=${names.join(',')}`;
}

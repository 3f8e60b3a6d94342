import fs from 'node:fs';
import path from 'node:path';

/**
 * The MCP App view (MCP Apps extension, 2026-01-26): one `ui://` resource that hosts render in
 * a sandboxed frame beside the answers of the tools linked to it. Plain data on this side:
 * the MIME type and the `_meta.ui` keys are the extension's wire format, so the server needs
 * none of its code. The HTML is built by scripts/build-views.js (`npm run build`).
 */
export const QUIZ_APP_URI = 'ui://quiz-service/quiz-app.html';
export const MCP_APP_MIME_TYPE = 'text/html;profile=mcp-app';

/**
 * The link to the view that a tool with `view: true` (tool.ts) carries, in both the current key and the older flat one that earlier
 * hosts read. Always attached: a 2025-era client may announce the extension only in an
 * `initialize` that stateless requests skip, and hosts without it ignore unknown metadata.
 */
export function viewLink(): Record<string, unknown> {
  return { ui: { resourceUri: QUIZ_APP_URI }, 'ui/resourceUri': QUIZ_APP_URI };
}

/**
 * What the resource declares about itself: no network calls, pictures from our own origin only
 * (the questions' images are served there), and a border around it.
 */
export function quizAppMeta(baseUrl: string) {
  return {
    ui: {
      csp: { connectDomains: [], resourceDomains: [new URL(baseUrl).origin] },
      prefersBorder: true,
    },
  };
}

function projectRoot(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error('no package.json above the MCP App resource module');
  }
}

export const QUIZ_APP_FILE = path.join(projectRoot(), 'dist', 'views', 'quiz-app.html');

/** The built view, read once; undefined (and the resource unlisted) when it was not built. */
export function loadQuizAppHtml(file = QUIZ_APP_FILE): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

import type { RequestHandler, Response } from 'express';
import { html, type Html } from '../web/html';
import { noticeBox, sendPage } from '../web/page-shell';
import { takeFlash, type Flash } from '../web/session-flash';
import { currentSession } from '../web/session';
import type { DashboardContext } from './context';

/**
 * The home page: what the service is, the way in (sign up, log in, or on to the dashboard), and
 * "Connect your assistant": for each client, the steps and a snippet that names this instance's
 * own MCP URL, each with a copy button.
 */

/** Whether assistants that connect from their vendor's servers can reach this address at all. */
export function reachableFromInternet(baseUrl: string): boolean {
  const { protocol, hostname } = new URL(baseUrl);
  if (protocol !== 'https:') return false;
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return false;
  if (host.includes(':')) return !(host === '::1' || /^(fc|fd|fe[89ab])/.test(host));
  return !/^(127|10|0)\.|^192\.168\.|^172\.(1[6-9]|2\d|3[01])\.|^169\.254\./.test(host);
}

interface Client {
  id: string;
  name: string;
  steps: Html;
  /** What to copy; shown as a code block. */
  snippet: string;
  snippetLabel: string;
  /** Connects from the vendor's cloud: needs a public HTTPS address. */
  remote?: boolean;
}

function clients(mcpUrl: string): Client[] {
  const vscode = { servers: { quiz: { type: 'http', url: mcpUrl } } };
  const cursor = { mcpServers: { quiz: { url: mcpUrl } } };
  const remote = { mcpServers: { quiz: { command: 'npx', args: ['-y', 'mcp-remote', mcpUrl] } } };
  return [
    {
      id: 'claude',
      name: 'Claude (claude.ai and the desktop app)',
      remote: true,
      steps: html`<ol>
        <li>Open <strong>Settings → Connectors</strong> and choose <strong>Add custom connector</strong>.</li>
        <li>Name it "Quiz service" and paste the URL below.</li>
        <li>Choose <strong>Connect</strong>: you log in here and approve the access Claude asks for.</li>
      </ol>`,
      snippet: mcpUrl,
      snippetLabel: 'Connector URL',
    },
    {
      id: 'chatgpt',
      name: 'ChatGPT',
      remote: true,
      steps: html`<ol>
        <li>
          In <strong>Settings → Apps &amp; Connectors → Advanced settings</strong>, turn on
          <strong>Developer mode</strong>.
        </li>
        <li>
          Choose <strong>Create</strong> under Connectors, paste the URL below and pick
          <strong>OAuth</strong>.
        </li>
        <li>Save, then connect: you log in here and approve ChatGPT's access.</li>
      </ol>`,
      snippet: mcpUrl,
      snippetLabel: 'MCP server URL',
    },
    {
      id: 'claude-code',
      name: 'Claude Code',
      steps: html`<ol>
        <li>Run the command below in a terminal.</li>
        <li>
          In Claude Code, type <code>/mcp</code>, pick "quiz" and authenticate in the browser that opens.
        </li>
      </ol>`,
      snippet: `claude mcp add --transport http quiz ${mcpUrl}`,
      snippetLabel: 'Command',
    },
    {
      id: 'vscode',
      name: 'VS Code',
      steps: html`<ol>
        <li>Save the configuration below as <code>.vscode/mcp.json</code> in your workspace.</li>
        <li>Choose <strong>Start</strong> above the "quiz" entry and allow the sign-in it asks for.</li>
      </ol>`,
      snippet: JSON.stringify(vscode, null, 2),
      snippetLabel: '.vscode/mcp.json',
    },
    {
      id: 'cursor',
      name: 'Cursor',
      steps: html`<ol>
        <li>
          Add the entry below to <code>~/.cursor/mcp.json</code> (or <code>.cursor/mcp.json</code> in a
          project).
        </li>
        <li>In <strong>Settings → MCP</strong>, choose <strong>Connect</strong> beside "quiz" and log in.</li>
      </ol>`,
      snippet: JSON.stringify(cursor, null, 2),
      snippetLabel: 'mcp.json',
    },
    {
      id: 'mcp-remote',
      name: 'Clients that only start local servers (mcp-remote)',
      steps: html`<ol>
        <li>
          <code>mcp-remote</code> runs as a local (stdio) server and forwards to this service; it opens a
          browser for the log-in the first time.
        </li>
        <li>Add the entry below to the client's MCP configuration (Node.js 18 or later is needed).</li>
      </ol>`,
      snippet: JSON.stringify(remote, null, 2),
      snippetLabel: 'Client configuration',
    },
    {
      id: 'curl',
      name: 'Scripts (curl with an API key)',
      steps: html`<ol>
        <li>
          Create a key on the <a href="/settings/security/api-keys">API keys</a> page and put it in
          <code>QUIZ_API_KEY</code>.
        </li>
        <li>Every request is one JSON-RPC call; this one lists the tools.</li>
      </ol>`,
      snippet: [
        `curl -sS ${mcpUrl} \\`,
        `  -H "Authorization: Bearer $QUIZ_API_KEY" \\`,
        `  -H 'Content-Type: application/json' \\`,
        `  -H 'Accept: application/json' \\`,
        `  -d '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'`,
      ].join('\n'),
      snippetLabel: 'Shell',
    },
  ];
}

function snippetBlock(id: string, label: string, text: string): Html {
  return html`<div class="snippet">
    <div class="snippet-head">
      <span class="snippet-label" id="${id}-label">${label}</span>
      <button
        type="button"
        class="secondary small"
        data-copy-target="${id}"
        data-copied-message="Copied."
        hidden
      >
        Copy
      </button>
      <span class="copy-status" role="status"></span>
    </div>
    <pre tabindex="0" aria-labelledby="${id}-label"><code id="${id}">${text}</code></pre>
  </div>`;
}

function unreachableNote(baseUrl: string, name: string): Html {
  return html`<p class="notice info">
    ${name} connects from its vendor's servers, which cannot reach ${baseUrl}. Run the service at a public
    HTTPS address (set <code>BASE_URL</code> to it), or open a tunnel to this one (for example
    <code>cloudflared tunnel --url ${baseUrl}</code> or
    <code>ngrok http ${new URL(baseUrl).port || '80'}</code>) and restart the service with
    <code>BASE_URL</code> set to the tunnel's https address. The local clients below work as shown.
  </p>`;
}

/** GET /: the home page, with how to connect an assistant to this instance. */
export function showHomePage({ config }: DashboardContext): RequestHandler {
  return (req, res) => sendHomePage(res, config.baseUrl, takeFlash(req, res));
}

function sendHomePage(res: Response, baseUrl: string, flash: Flash | null): void {
  const mcpUrl = `${baseUrl}/api/mcp`;
  const entries = clients(mcpUrl);
  const session = currentSession(res);
  const reachable = reachableFromInternet(baseUrl);
  const way = session
    ? html`<p><a class="button" href="/dashboard">Go to your dashboard</a></p>`
    : html`<p class="actions">
        <a class="button" href="/signup">Sign up</a>
        <a class="button secondary" href="/login">Log in</a>
      </p>`;
  sendPage(res, {
    title: 'Home',
    section: 'home',
    scripts: ['copy-button.js'],
    body: html`${noticeBox(flash)}
      <section class="intro">
        <h1>Quizzes made by your AI assistant</h1>
        <p>
          Ask Claude, ChatGPT, Cursor or VS Code to write a quiz, publish it, and read the results. People
          take it on a public page; you see every answer, the scores and the pass rate here.
        </p>
        ${way}
      </section>
      <section id="connect" aria-labelledby="connect-heading">
        <h2 id="connect-heading">Connect your assistant</h2>
        <p>
          Every assistant talks to one address, this service's MCP endpoint: <code>${mcpUrl}</code>.
          Assistants log in with OAuth (you approve each one, and can disconnect it under
          <a href="/settings/connected-apps">Connected apps</a>); scripts use an API key.
        </p>
        <nav aria-label="Clients" class="toc">
          <ul>
            ${entries.map((client) => html`<li><a href="#connect-${client.id}">${client.name}</a></li>`)}
          </ul>
        </nav>
        ${entries.map(
          (client) =>
            html`<section class="client" id="connect-${client.id}" aria-labelledby="connect-${client.id}-h">
              <h3 id="connect-${client.id}-h">${client.name}</h3>
              ${client.remote && !reachable ? unreachableNote(baseUrl, client.name.split(' ')[0]!) : ''}
              ${client.steps} ${snippetBlock(`snippet-${client.id}`, client.snippetLabel, client.snippet)}
            </section>`,
        )}
      </section>`,
  });
}

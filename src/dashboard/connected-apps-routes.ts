import express, { type Response, type Router } from 'express';
import { csrfField, parseForm, verifyCsrf } from '../web/csrf';
import { html, type Html } from '../web/html';
import { currentSession, requireLogin } from '../web/session';
import { setFlash, takeFlash, type Flash } from '../web/session-flash';
import { SCOPE_WORDS, type ConnectedApp } from '../identity/connected-apps';
import type { DashboardContext } from './context';
import { formatTime, noticeBox, readerZone, sendPage } from '../web/page-shell';

const PATH = '/settings/connected-apps';

function appItem(res: Response, app: ConnectedApp): Html {
  return html`<li class="card">
    <h2 class="card-title">${app.name}</h2>
    ${app.redirectHost ? html`<p class="card-meta">Sends you back to <code>${app.redirectHost}</code></p>` : ''}
    <ul class="scopes">
      ${app.scopes.map((scope) => html`<li>${SCOPE_WORDS[scope] ?? scope}</li>`)}
    </ul>
    <p class="card-meta">
      Connected ${formatTime(app.connectedAt, undefined, readerZone(res))} · last used
      ${formatTime(app.lastUsedAt, undefined, readerZone(res))}
    </p>
    <form method="post" action="${PATH}/${app.id}/revoke">
      ${csrfField(res)}
      <button type="submit" class="danger small" aria-label="Disconnect ${app.name}">Disconnect</button>
    </form>
  </li>`;
}

function sendConnectedAppsPage(res: Response, apps: ConnectedApp[], flash: Flash | null): void {
  sendPage(res, {
    title: 'Connected apps',
    section: 'connected-apps',
    body: html`<p class="breadcrumb">Settings</p>
      <h1>Connected apps</h1>
      ${noticeBox(flash)}
      <p>
        AI assistants you have allowed to use your account, for example after adding this service as a
        connector in Claude, ChatGPT, Cursor or VS Code. Disconnecting one ends its access at once.
      </p>
      ${
        apps.length === 0
          ? html`<div class="empty">
              <p><strong>No apps are connected.</strong></p>
              <p class="muted">When you approve an assistant on the consent screen, it is listed here.</p>
            </div>`
          : html`<ul class="cards">
              ${apps.map((app) => appItem(res, app))}
            </ul>`
      }`,
  });
}

export function connectedAppsRoutes({ connectedApps }: DashboardContext): Router {
  const router = express.Router();

  router.get(PATH, requireLogin(), async (req, res) => {
    const session = currentSession(res)!;
    sendConnectedAppsPage(res, await connectedApps.list(session.userId), takeFlash(req, res));
  });

  router.post(`${PATH}/:appId/revoke`, requireLogin(), parseForm(), verifyCsrf(), async (req, res) => {
    const session = currentSession(res)!;
    const apps = await connectedApps.list(session.userId);
    const app = apps.find((candidate) => candidate.id === req.params.appId);
    const revoked = app ? await connectedApps.revoke(session.userId, app.id) : false;
    setFlash(res, {
      notice: revoked
        ? { kind: 'success', text: `“${app!.name}” is disconnected and can no longer use your account.` }
        : { kind: 'error', text: 'That app was already disconnected.' },
    });
    res.redirect(303, PATH);
  });

  return router;
}

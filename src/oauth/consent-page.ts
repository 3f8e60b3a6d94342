import type { Response } from 'express';
import { SCOPE_WORDS } from '../identity/connected-apps';
import { sendPage } from '../web/page-shell';
import type { OAuthClientRecord } from '../domain/oauth/oauth-clients';
import { csrfField } from '../web/csrf';
import { html, type Html } from '../web/html';
import type { ValidAuthorizationRequest } from './authorization-request';
import { describeRedirect } from './redirect-uris';
import { AUTHORIZE_PATH } from './oauth-urls';

/**
 * The consent page and the authorization error page. Everything an app says about itself
 * (its name, its URLs) is untrusted text: the html tag escapes it. What people can rely on is
 * shown next to it: where the answer goes (the redirect host), and for metadata-document
 * clients the site that publishes the document. The page is not frameable (pageSecurity:
 * frame-ancestors 'none' and X-Frame-Options DENY): clickjacking of the Allow button.
 */
export function clientDisplayName(client: { id: string; name: string | null; source: string }): string {
  if (client.name) return client.name;
  return client.source === 'metadata_document' ? new URL(client.id).host : 'An app without a name';
}

function identity(client: OAuthClientRecord): Html {
  if (client.source === 'metadata_document') {
    const url = new URL(client.id);
    return html`<p>
      Its details are published by <strong>${url.host}</strong> at <code>${client.id}</code>.
    </p>`;
  }
  return html`<p class="muted">
    This app registered itself, so its name was not checked. Go on only if you have just started connecting
    it.
  </p>`;
}

function destination(redirectUri: string): Html {
  const target = describeRedirect(redirectUri);
  const where = html`<p>
    After you choose, you are sent back to <strong><code>${target.host}</code></strong
    >.
  </p>`;
  if (target.kind === 'loopback') {
    return html`${where}
      <div class="notice error" role="alert">
        That address is on your own computer. Allow only if you have just started connecting an app on this
        computer (such as Claude Desktop, Cursor or VS Code). If a web page or a message sent you here, choose
        Deny.
      </div>`;
  }
  if (target.kind === 'app') {
    return html`${where}
      <p class="muted">That opens the app on this device that handles <code>${target.host}</code> links.</p>`;
  }
  return where;
}

function hiddenFields(request: ValidAuthorizationRequest): Html {
  const fields: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: request.client.id,
    redirect_uri: request.redirectUriSent ? request.redirectUri : undefined,
    state: request.state,
    scope: request.scopes.join(' '),
    code_challenge: request.codeChallenge,
    code_challenge_method: 'S256',
    resource: request.resourceSent ? request.resource : undefined,
  };
  return html`${Object.entries(fields).map(([name, value]) =>
    value === undefined ? '' : html`<input type="hidden" name="${name}" value="${value}" />`,
  )}`;
}

export function sendConsentPage(res: Response, request: ValidAuthorizationRequest): void {
  const name = clientDisplayName(request.client);
  sendPage(res, {
    title: 'Connect an app',
    body: html`<div class="narrow">
      <h1>Allow “${name}” to use your quiz account?</h1>
      ${identity(request.client)}
      <p>It will be able to:</p>
      <ul class="scopes">
        ${request.scopes.map((scope) => html`<li>${SCOPE_WORDS[scope] ?? scope}</li>`)}
      </ul>
      ${destination(request.redirectUri)}
      <form method="post" action="${AUTHORIZE_PATH}">
        ${csrfField(res)} ${hiddenFields(request)}
        <p class="actions">
          <button type="submit" name="decision" value="approve">Allow</button>
          <button type="submit" name="decision" value="deny" class="secondary">Deny</button>
        </p>
      </form>
      <p class="muted">You can disconnect it at any time under Settings, Connected apps.</p>
    </div>`,
  });
}

/** Problems with the client or its redirect URI: said here, never sent to the redirect URI. */
export function sendAuthorizationErrorPage(res: Response, message: string, status = 400): void {
  sendPage(res, {
    title: 'Cannot connect this app',
    status,
    body: html`<div class="narrow">
      <h1>This app cannot be connected</h1>
      <div class="notice error" role="alert">${message}</div>
      <p>
        Nothing was shared. Go back to the app and start connecting again; if this keeps happening, the app's
        makers need to fix its sign-in settings.
      </p>
      <p><a href="/dashboard">Go to your dashboard</a></p>
    </div>`,
  });
}

import type { Response } from 'express';
import { MAX_ACTIVE_KEYS, type ApiKeyRecord } from '../domain/api-keys';
import { csrfField } from '../web/csrf';
import { html, type Html } from '../web/html';
import type { Flash } from '../web/session-flash';
import { dataTable, errorSummary, errorsFor, field, secretPanel, type FieldError } from '../web/parts';
import { formatTime, noticeBox, readerZone, sendPage } from '../web/page-shell';

export interface ApiKeysPageState {
  keys: ApiKeyRecord[];
  mcpUrl: string;
  flash?: Flash | null;
  name?: string;
  errors?: FieldError[];
  status?: number;
}

/** The new key's value, shown this one time, with a copy button (assets/copy-button.js). */
function newKeyPanel(newKey: NonNullable<Flash['newApiKey']>): Html {
  return secretPanel({
    id: 'new-key-value',
    title: `Your new API key “${newKey.name}”`,
    use: 'If you lose it, revoke it and create a new one.',
    value: newKey.key,
    copyLabel: 'Copy key',
    copiedMessage: 'The key is on your clipboard.',
  });
}

/** The keys, one row each (a card each on a phone), with a revoke button named for its key. */
function keysTable(res: Response, keys: ApiKeyRecord[]): Html {
  const zone = readerZone(res);
  return dataTable({
    columns: [
      { label: 'Name' },
      { label: 'Key' },
      { label: 'Created' },
      { label: 'Last used' },
      { label: 'Actions', hiddenLabel: true },
    ],
    rows: keys.map((key) => ({
      header: key.name,
      cells: [
        html`<code class="nowrap">${key.prefix}…${key.last4}</code>`,
        formatTime(key.created_at, undefined, zone),
        formatTime(key.last_used_at, undefined, zone),
        html`<form method="post" action="/settings/security/api-keys/${key.id}/revoke" class="inline">
          ${csrfField(res)}
          <button type="submit" class="danger small" aria-label="Revoke ${key.name}">Revoke</button>
        </form>`,
      ],
    })),
  });
}

export function sendApiKeysPage(res: Response, state: ApiKeysPageState): void {
  const { keys } = state;
  const errors = state.errors ?? [];
  const atLimit = keys.length >= MAX_ACTIVE_KEYS;
  sendPage(res, {
    title: 'API keys',
    section: 'api-keys',
    status: state.status ?? 200,
    scripts: state.flash?.newApiKey ? ['copy-button.js'] : [],
    body: html`<p class="breadcrumb">Settings › Security</p>
      <h1>API keys</h1>
      ${noticeBox(state.flash ?? null)} ${state.flash?.newApiKey ? newKeyPanel(state.flash.newApiKey) : ''}
      <p>
        An API key lets a script or an AI assistant use your account through the MCP endpoint
        <code>${state.mcpUrl}</code>. Send it as <code>Authorization: Bearer &lt;key&gt;</code>. Treat it like
        a password: anyone who has it can change your quizzes.
      </p>

      <h2>Create a key</h2>
      ${errorSummary(errors)}
      <form method="post" action="/settings/security/api-keys" novalidate>
        ${csrfField(res)}
        ${field({
          id: 'name',
          name: 'name',
          required: true,
          label: 'Name',
          hint: 'Where you will use it, so you can tell your keys apart. For example: Claude Desktop on my laptop.',
          value: state.name ?? '',
          autocomplete: 'off',
          maxlength: 100,
          errors: errorsFor(errors, 'name'),
        })}
        <p><button type="submit">Create key</button></p>
      </form>
      <p class="muted">
        ${keys.length} of ${MAX_ACTIVE_KEYS} keys in
        use.${atLimit ? ' Revoke a key you no longer use before creating another.' : ''}
      </p>

      <h2>Your keys</h2>
      ${keys.length === 0 ? html`<p class="muted">You have no API keys.</p>` : keysTable(res, keys)}
      <p class="muted">
        Revoking a key stops it from working at once; apps using it must be given a new one.
      </p>`,
  });
}

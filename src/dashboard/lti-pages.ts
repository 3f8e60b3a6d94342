import type { Response } from 'express';
import type { listPlatforms, toolEndpoints } from '../domain/lti/platforms';
import { csrfField } from '../web/csrf';
import { html, type Html } from '../web/html';
import { formatTime, noticeBox, readerZone, sendPage } from '../web/page-shell';
import type { Flash } from '../web/session-flash';
import { dataTable, errorSummary, errorsFor, field, secretPanel, type FieldError } from '../web/parts';

export const LTI_PATH = '/settings/lti';

export type PlatformView = Awaited<ReturnType<typeof listPlatforms>>[number];
export type ToolEndpoints = ReturnType<typeof toolEndpoints>;

/** The hand registration's form as typed: the domain's field names, deployment ids one per line. */
export interface PlatformForm {
  name: string;
  issuer: string;
  client_id: string;
  deployment_ids: string;
  auth_login_url: string;
  auth_token_url: string;
  jwks_url: string;
}

export const EMPTY_PLATFORM_FORM: PlatformForm = {
  name: '',
  issuer: '',
  client_id: '',
  deployment_ids: '',
  auth_login_url: '',
  auth_token_url: '',
  jwks_url: '',
};

/** Each field's label, as Moodle and Canvas name the value to copy from them. */
export const PLATFORM_LABELS: Record<keyof PlatformForm, string> = {
  name: 'Name',
  issuer: 'Issuer (platform ID)',
  client_id: 'Client ID',
  deployment_ids: 'Deployment IDs',
  auth_login_url: 'Authentication request URL',
  auth_token_url: 'Access token URL',
  jwks_url: 'Public keyset URL (JWKS)',
};

export interface LtiPageState {
  platforms: PlatformView[];
  endpoints: ToolEndpoints;
  flash?: Flash | null;
  form?: PlatformForm;
  errors?: FieldError[];
  status?: number;
}

const VIA: Record<string, string> = { manual: 'By hand', dynamic: 'Dynamic Registration' };

function platformsTable(res: Response, platforms: PlatformView[]): Html {
  const zone = readerZone(res);
  return dataTable({
    columns: [
      { label: 'Name' },
      { label: 'Issuer' },
      { label: 'Client ID' },
      { label: 'Deployment IDs' },
      { label: 'Registered' },
      { label: 'Actions', hiddenLabel: true },
    ],
    rows: platforms.map((platform) => ({
      header: html`<span class="long-text">${platform.name}</span>`,
      cells: [
        html`<code class="long-text">${platform.issuer}</code>`,
        html`<code class="long-text">${platform.client_id}</code>`,
        html`${platform.deployment_ids.map((id, index) => html`${index > 0 ? ', ' : ''}<code>${id}</code>`)}`,
        html`${VIA[platform.registered_via] ?? platform.registered_via},
        ${formatTime(new Date(platform.created_at), undefined, zone)}`,
        html`<form method="post" action="${LTI_PATH}/${platform.platform_id}/remove" class="inline">
          ${csrfField(res)}
          <button type="submit" class="secondary small">
            Remove<span class="sr-only"> ${platform.name}</span>
          </button>
        </form>`,
      ],
    })),
  });
}

/** The Dynamic Registration address, shown this one time, with the steps on each platform. */
function registrationPanel(registration: NonNullable<Flash['newLtiRegistration']>, zone: string): Html {
  return html`${secretPanel({
      id: 'registration-url',
      title: 'Your registration URL',
      use: `It works once, until ${formatTime(new Date(registration.expiresAt), undefined, zone)}: whoever has it can add a platform to your account.`,
      value: registration.url,
      copyLabel: 'Copy URL',
      copiedMessage: 'The registration URL is on your clipboard.',
    })}
    <h3>In Moodle</h3>
    <ol>
      <li>
        Go to <strong>Site administration</strong> → <strong>Plugins</strong> →
        <strong>Activity modules</strong> → <strong>External tool</strong> → <strong>Manage tools</strong>.
      </li>
      <li>Paste the URL into <strong>Tool URL</strong> and choose <strong>Add LTI Advantage</strong>.</li>
      <li>Moodle registers the tool; activate it in the list of tools. It then shows here.</li>
    </ol>
    <h3>In Canvas</h3>
    <p class="muted">Not tried here yet: tell us if a step differs.</p>
    <ol>
      <li>
        Go to <strong>Admin</strong> → <strong>Developer Keys</strong> (or <strong>LTI Registration</strong>).
      </li>
      <li>Add an <strong>LTI Registration</strong> and paste the URL as the registration URL.</li>
      <li>Turn the new key on and install the app in the account or course.</li>
    </ol>`;
}

/** The tool's own addresses, each with a copy button (assets/copy-button.js). */
function endpointsList(endpoints: ToolEndpoints): Html {
  const rows: Array<[string, string, string]> = [
    ['tool-login-url', 'Initiate login URL', endpoints.login_url],
    ['tool-launch-url', 'Tool URL and redirection URI', endpoints.launch_url],
    ['tool-deep-linking-url', 'Deep linking (content selection) URL', endpoints.deep_linking_url],
    ['tool-jwks-url', 'Public keyset URL (JWKS)', endpoints.jwks_url],
  ];
  return html`<dl class="facts copy-list">
    ${rows.map(
      ([id, label, value]) =>
        html`<dt id="${id}-label">${label}</dt>
          <dd>
            <code class="long-text" id="${id}">${value}</code>
            <button
              type="button"
              class="secondary small"
              data-copy-target="${id}"
              data-copied-message="${label} copied."
              aria-describedby="${id}-label"
              hidden
            >
              Copy
            </button>
            <span class="copy-status" role="status" aria-live="polite"></span>
          </dd>`,
    )}
  </dl>`;
}

function manualForm(res: Response, state: LtiPageState): Html {
  const errors = state.errors ?? [];
  const form = state.form ?? EMPTY_PLATFORM_FORM;
  const input = (
    name: keyof PlatformForm,
    hint: string,
    extra: { multiline?: boolean; maxlength?: number } = {},
  ) =>
    field({
      id: name,
      name,
      label: PLATFORM_LABELS[name],
      hint,
      value: form[name],
      required: true,
      autocomplete: 'off',
      spellcheck: false,
      maxlength: extra.maxlength ?? 2048,
      multiline: extra.multiline,
      rows: extra.multiline ? 3 : undefined,
      errors: errorsFor(errors, name),
    });
  return html`<form method="post" action="${LTI_PATH}/platforms" novalidate>
    ${csrfField(res)} ${input('name', 'Your name for it, such as the school’s Moodle.', { maxlength: 100 })}
    ${input('issuer', 'The platform’s address as it signs its launches, such as https://moodle.example.org.')}
    ${input('client_id', 'The id the platform gave this tool.', { maxlength: 255 })}
    ${input('deployment_ids', 'One per line, as the platform shows them.', { multiline: true, maxlength: 13000 })}
    ${input('auth_login_url', 'Where the platform authenticates a launch (Moodle: …/mod/lti/auth.php).')}
    ${input('auth_token_url', 'Where the tool asks for an access token (Moodle: …/mod/lti/token.php).')}
    ${input('jwks_url', 'The platform’s public keys (Moodle: …/mod/lti/certs.php).')}
    <p><button type="submit">Register the platform</button></p>
  </form>`;
}

export function sendLtiPage(res: Response, state: LtiPageState): void {
  const { platforms } = state;
  const registration = state.flash?.newLtiRegistration;
  sendPage(res, {
    title: 'Learning platforms (LTI)',
    section: 'lti',
    status: state.status ?? 200,
    wide: true,
    scripts: ['copy-button.js'],
    body: html`<p class="breadcrumb">Settings</p>
      <h1>Learning platforms (LTI)</h1>
      ${noticeBox(state.flash ?? null)}
      ${registration ? registrationPanel(registration, readerZone(res)) : ''}
      <p>
        Register a learning platform such as Moodle or Canvas (LTI 1.3) to your account, so its courses can
        open your quizzes. Register it with a one-time URL the platform opens itself, or by hand with the
        values it shows.
      </p>

      <h2>Your platforms</h2>
      ${
        platforms.length === 0
          ? html`<p class="muted">You have no learning platforms registered.</p>`
          : html`${platformsTable(res, platforms)}
              <p class="muted">Remove asks first; launches from a removed platform are refused.</p>`
      }

      <h2>Register with a URL (Dynamic Registration)</h2>
      <p>
        Make a registration URL and paste it into the platform. It is shown once, works once and for an hour.
      </p>
      <form method="post" action="${LTI_PATH}/registration-url">
        ${csrfField(res)}
        <p><button type="submit" class="secondary">Make a registration URL</button></p>
      </form>

      <h2>Register by hand</h2>
      <div class="lti-split">
        <section aria-labelledby="tool-urls-title">
          <h3 id="tool-urls-title">This tool’s URLs, for the platform</h3>
          ${endpointsList(state.endpoints)}
        </section>
        <section aria-labelledby="platform-values-title">
          <h3 id="platform-values-title">The platform’s values</h3>
          ${errorSummary({ errors: state.errors ?? [], autofocus: (state.errors ?? []).length > 0 })}
          ${manualForm(res, state)}
        </section>
      </div>`,
  });
}

/** Asks before a platform goes; the button posts the one form that removes it. */
export function sendRemovePlatformPage(res: Response, platform: PlatformView): void {
  sendPage(res, {
    title: `Remove “${platform.name}”?`,
    section: 'lti',
    body: html`<div class="narrow">
      <p class="breadcrumb"><a href="${LTI_PATH}">Learning platforms (LTI)</a></p>
      <h1 class="long-text">Remove “${platform.name}”?</h1>
      <p>
        Launches from <code class="long-text">${platform.issuer}</code> with client ID
        <code class="long-text">${platform.client_id}</code> are refused from then on. The tool stays listed
        on the platform until its administrator deletes it there. To use it again, register it again.
      </p>
      <form method="post" action="${LTI_PATH}/${platform.platform_id}/remove">
        ${csrfField(res)}
        <input type="hidden" name="confirm" value="yes" />
        <p class="actions">
          <button type="submit" class="danger">Remove the platform</button>
          <a class="button secondary" href="${LTI_PATH}">Keep it</a>
        </p>
      </form>
    </div>`,
  });
}

import { embedSnippet } from '../domain/links/quiz-links';
import { classReachHint } from '../http/class-reach';
import { html, type Html } from '../web/html';

export interface ShareTarget {
  quizId: string;
  slug: string;
  title: string;
  publicUrl: string;
  allowEmbedding: boolean;
}

function copyButton(target: string, label: string, message: string): Html {
  return html`<button
      type="button"
      class="secondary small"
      data-copy-target="${target}"
      data-copied-message="${message}"
      hidden
    >
      ${label}
    </button>
    <span class="copy-status" role="status" aria-live="polite"></span>`;
}

/**
 * The share panel of a published quiz: the link with a copy button (assets/copy-button.js; the
 * text can be selected by hand without it), its QR code with SVG and PNG downloads, and the embed
 * snippet when embedding is on.
 */
export function sharePanel(target: ShareTarget): Html {
  const base = `/dashboard/quizzes/${target.quizId}`;
  return html`<section class="share" aria-labelledby="share-title">
    <h2 id="share-title">Share</h2>
    ${loopbackWarning(target.publicUrl)}
    <div class="share-grid">
      <div>
        <p class="share-label" id="share-link-label">Public link</p>
        <p class="copy-row">
          <code id="share-link" class="share-url" aria-labelledby="share-link-label"
            >${target.publicUrl}</code
          >
          ${copyButton('share-link', 'Copy link', 'The link is on your clipboard.')}
        </p>
        <p><a href="${target.publicUrl}">Open the public page</a></p>
        <p class="share-label" id="embed-label">Embed on another site</p>
        ${
          target.allowEmbedding
            ? html`<pre><code id="embed-code" aria-labelledby="embed-label">${embedSnippet(target)}</code></pre>
                <p class="copy-row">
                  ${copyButton('embed-code', 'Copy embed code', 'The embed code is on your clipboard.')}
                </p>`
            : html`<p class="muted">
                Other sites cannot show this quiz in a frame. To allow it, tick “Allow other sites to embed
                the quiz” in <a href="${base}/edit#settings">the settings</a>.
              </p>`
        }
      </div>
      <figure class="qr">
        <img src="${base}/qr.svg" width="180" height="180" alt="QR code of the public link" />
        <figcaption>
          Download the QR code:
          <a href="${base}/qr.svg" download="${target.slug}-qr.svg">SVG</a> ·
          <a href="${base}/qr.png" download="${target.slug}-qr.png">PNG</a>
        </figcaption>
      </figure>
    </div>
  </section>`;
}

/**
 * A link on a loopback address opens on this computer only: a student's phone that scans the QR
 * code opens itself. Says what to start the service with instead (the link carries the port the
 * service listens on, since a loopback address has no proxy in front).
 */
function loopbackWarning(publicUrl: string): Html {
  const url = new URL(publicUrl);
  const reach = classReachHint({
    baseUrl: url.origin,
    port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
  });
  if (!reach) return html``;
  return html`<div class="notice info" role="note">
    <p>
      <strong>Only this computer can open this link and its QR code:</strong> they name
      <code>${reach.baseUrl}</code>.
    </p>
    <p>
      To let a class on this network in, restart the service with <code>${reach.settings}</code> (README, “Let
      your class in”). For a public address, set <code>BASE_URL</code> to it.
    </p>
  </div>`;
}

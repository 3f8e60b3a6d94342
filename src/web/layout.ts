import { html, type Html } from './html';

export interface LayoutOptions {
  title: string;
  body: Html;
  /** Navigation shown at the top (the dashboard passes its menu). */
  nav?: Html;
  /** `noindex` for private pages. */
  robots?: string;
  /** A wider column for pages with charts and tables (a quiz's results, the editor). */
  wide?: boolean;
  /** The page's language (BCP 47) and direction; English left to right unless a page says otherwise. */
  lang?: string;
  dir?: 'ltr' | 'rtl';
  /** Script files under /assets/ (the CSP allows no inline script). */
  scripts?: readonly string[];
}

/** The one page shell: one stylesheet, no scripts unless a page adds its own file. */
export function layout({
  title,
  body,
  nav,
  robots,
  wide,
  lang = 'en',
  dir,
  scripts = [],
}: LayoutOptions): string {
  return `<!doctype html>${html`<html lang="${lang}" ${dir ? html`dir="${dir}"` : ''}>
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      ${robots ? html`<meta name="robots" content="${robots}" />` : ''}
      <title>${title}</title>
      <link rel="icon" href="data:," />
      <link rel="stylesheet" href="/assets/style.css" />
    </head>
    <body>
      ${nav ? html`<header class="site">${nav}</header>` : ''}
      <main id="main" ${wide ? html` class="wide"` : ''}>${body}</main>
      ${scripts.map((name) => html`<script src="/assets/${name}" defer></script>`)}
    </body>
  </html>`}`;
}

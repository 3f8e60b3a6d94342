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
}

/** The one page shell: one stylesheet, no scripts unless a page adds its own file. */
export function layout({ title, body, nav, robots, wide }: LayoutOptions): string {
  return `<!doctype html>${html`<html lang="en">
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
    </body>
  </html>`}`;
}

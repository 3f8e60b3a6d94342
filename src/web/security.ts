import helmet from 'helmet';
import type { RequestHandler, Response } from 'express';

/**
 * Security headers for HTML pages (not the JSON API, where they would only add bytes):
 * a CSP that allows this origin's own stylesheet and scripts and nothing inline, no framing
 * (clickjacking of forms such as OAuth consent), no MIME sniffing, no referrer leaks.
 */
export function pageSecurity(options: { https: boolean }): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
        ...(options.https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    // Sent on every answer over https by http/strict-transport.ts, pages included.
    strictTransportSecurity: false,
    crossOriginEmbedderPolicy: false,
  });
}

/**
 * Lets any site frame this one page (a quiz whose owner turned on allow_embedding): the CSP's
 * `frame-ancestors 'none'` becomes `*` and X-Frame-Options goes. Every other page keeps both.
 */
export function allowFraming(res: Response): void {
  framedBy(res, '*');
}

/** The CSP's `frame-ancestors 'none'` becomes `ancestors`, and X-Frame-Options goes. */
function framedBy(res: Response, ancestors: string): void {
  const csp = res.getHeader('Content-Security-Policy');
  if (typeof csp === 'string') {
    res.setHeader(
      'Content-Security-Policy',
      csp.replace("frame-ancestors 'none'", `frame-ancestors ${ancestors}`),
    );
  }
  res.removeHeader('X-Frame-Options');
}

/**
 * Lets the site at `address`'s origin alone frame this page (an LTI platform framing the page it
 * opened): the CSP's `frame-ancestors 'none'` becomes that origin and X-Frame-Options goes.
 */
export function allowFramingBy(res: Response, address: string | undefined): void {
  if (!address || !URL.canParse(address)) return;
  const { origin, protocol } = new URL(address);
  if (protocol === 'https:' || protocol === 'http:') framedBy(res, origin);
}

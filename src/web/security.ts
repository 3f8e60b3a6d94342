import helmet from 'helmet';
import type { RequestHandler } from 'express';

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
    strictTransportSecurity: options.https ? { maxAge: 15_552_000 } : false,
    crossOriginEmbedderPolicy: false,
  });
}

import type { RequestHandler } from 'express';
import { sendProblem } from './problem';

/**
 * DNS-rebinding defences (MCP transport security; DESIGN.md section 3):
 * - a browser request whose `Origin` is not this service's own (or a configured one) gets 403:
 *   a page on another site must not drive the endpoint with a user's ambient access;
 * - in production the `Host` header must name this service, so that a rebound hostname
 *   pointing at it is refused.
 */
export function originGuard(options: { baseUrl: string; allowedOrigins: string[] }): RequestHandler {
  const allowed = new Set([
    new URL(options.baseUrl).origin,
    ...options.allowedOrigins.map((o) => new URL(o).origin),
  ]);
  return (req, res, next) => {
    const origin = req.headers.origin;
    if (origin === undefined || allowed.has(origin)) {
      next();
      return;
    }
    sendProblem(res, options.baseUrl, 'forbidden', {
      detail: `Requests from the origin ${origin} are not accepted.`,
      hint: 'Call the API from a server or a native client, not from a page on another site.',
    });
  };
}

export function hostGuard(options: {
  baseUrl: string;
  allowedHosts: string[];
  exempt: string[];
}): RequestHandler {
  const allowed = new Set(options.allowedHosts.map((host) => host.toLowerCase()));
  const exempt = new Set(options.exempt);
  return (req, res, next) => {
    const host = (req.headers.host ?? '').toLowerCase();
    if (exempt.has(req.path) || allowed.has(host)) {
      next();
      return;
    }
    sendProblem(res, options.baseUrl, 'forbidden', {
      detail: `This service does not answer to the host name "${req.headers.host ?? ''}".`,
      hint: `Use ${options.baseUrl}.`,
    });
  };
}

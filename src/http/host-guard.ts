import type { RequestHandler, Response } from 'express';
import { loopbackAliases } from './loopback-origin';
import { sendProblem } from './problem';

/**
 * DNS-rebinding defences (MCP transport security):
 * - a browser request whose `Origin` is not this service's own (or a configured one) gets 403:
 *   a page on another site must not drive the endpoint with a user's ambient access;
 * - in production the `Host` header must name this service, so that a rebound hostname
 *   pointing at it is refused (403); one that names no host at all is refused before, in
 *   every environment, by malformedHostGuard (400).
 */
export function originGuard(options: { baseUrl: string; allowedOrigins: string[] }): RequestHandler {
  const base = new URL(options.baseUrl);
  const allowed = new Set([
    base.origin,
    // On loopback, the same service under its other loopback names (see loopback-origin.ts).
    ...loopbackAliases(options.baseUrl).map((host) => `${base.protocol}//${host}`),
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
  const allowed = new Set([
    ...options.allowedHosts.map((host) => host.toLowerCase()),
    ...loopbackAliases(options.baseUrl),
  ]);
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

// A registered name or IPv4 address, or a bracketed IPv6 address, then an optional port.
const HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/i;

/**
 * In every environment: a Host header that names no host (`bad host`, `[::1`, `x:99999`) is
 * a 400, before any route builds a URL from it (the MCP SDK's Node adapter does, and would
 * fail as a 500). Probes are exempt: a load balancer's health check may send none.
 */
export function malformedHostGuard(options: { baseUrl: string; exempt: readonly string[] }): RequestHandler {
  const exempt = new Set(options.exempt);
  return (req, res, next) => {
    // Node keeps the first of repeated Host headers; HTTP/1.1 requires a 400 (RFC 9112, 3.2),
    // since a proxy may have routed by another one. Probes too: this is never a valid request.
    if (hostHeaderCount(req.rawHeaders) > 1) {
      sendProblem(res, options.baseUrl, 'bad_request', {
        detail: 'The request has more than one Host header.',
        hint: `Send exactly one, e.g. "Host: ${new URL(options.baseUrl).host}".`,
      });
      return;
    }
    if (exempt.has(req.path) || wellFormedHost(req.headers.host)) {
      next();
      return;
    }
    refuseMalformedHost(res, options.baseUrl);
  };
}

/** How many Host headers a request carries (raw headers alternate name and value). */
function hostHeaderCount(rawHeaders: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.toLowerCase() === 'host') count += 1;
  return count;
}

/** 400 for a Host header that is not a host name with an optional port. */
function refuseMalformedHost(res: Response, baseUrl: string): void {
  sendProblem(res, baseUrl, 'bad_request', {
    detail: `The Host header "${res.req.headers.host ?? ''}" is not a host name with an optional port.`,
    hint: `Send the host of ${baseUrl}, e.g. "Host: ${new URL(baseUrl).host}".`,
  });
}

/** Whether a Host header is a host with an optional port (1-65535): something a URL can be built from. */
export function wellFormedHost(host: string | undefined): boolean {
  if (!host) return false;
  const match = HOST.exec(host);
  if (!match) return false;
  const port = match[1];
  return port === undefined || (Number(port) >= 1 && Number(port) <= 65535);
}

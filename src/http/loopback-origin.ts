import type { IncomingHttpHeaders } from 'node:http';

/**
 * The names one machine answers to on its loopback interface. A local client may reach a
 * service configured as `http://localhost:3000` through `http://127.0.0.1:3000` (and the other
 * way round); OAuth clients compare the advertised resource with the URL they called, so the
 * service answers under the name the client used. Only between these names, on the same
 * port and scheme: a request can never make the service advertise a non-loopback host.
 */
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

export function isLoopbackBase(baseUrl: string): boolean {
  return LOOPBACK_NAMES.includes(new URL(baseUrl).hostname);
}

/** Every `host[:port]` the service answers to when its base URL is a loopback one, else none. */
export function loopbackAliases(baseUrl: string): string[] {
  const base = new URL(baseUrl);
  if (!isLoopbackBase(baseUrl)) return [];
  return LOOPBACK_NAMES.map((name) => (base.port ? `${name}:${base.port}` : name));
}

/**
 * The base URL under the name this request used: `baseUrl` itself, unless it is a loopback
 * address and the request's Host is another loopback name with the same port.
 */
export function baseUrlFor(req: { headers: IncomingHttpHeaders }, baseUrl: string): string {
  const host = req.headers.host?.toLowerCase();
  if (!host || !isLoopbackBase(baseUrl)) return baseUrl;
  const base = new URL(baseUrl);
  if (host === base.host || !loopbackAliases(baseUrl).includes(host)) return baseUrl;
  return `${base.protocol}//${host}${base.pathname.replace(/\/+$/, '')}`;
}

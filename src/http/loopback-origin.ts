import type { IncomingHttpHeaders } from 'node:http';

/**
 * The names one machine answers to on its loopback interface. A local client may reach a
 * service configured as `http://localhost:3000` through `http://127.0.0.1:3000` (and the other
 * way round); OAuth clients compare the advertised resource with the URL they called, so the
 * service answers under the name the client used. Only between these names, on the same
 * port and scheme: a request can never make the service advertise a non-loopback host.
 */
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

interface ParsedBase {
  protocol: string;
  host: string;
  path: string;
  aliases: string[];
}

// Parsed once per configured base URL: baseUrlFor runs on every authenticated request.
const parsed = new Map<string, ParsedBase>();

function parse(baseUrl: string): ParsedBase {
  let found = parsed.get(baseUrl);
  if (!found) {
    const base = new URL(baseUrl);
    const loopback = LOOPBACK_NAMES.includes(base.hostname);
    found = {
      protocol: base.protocol,
      host: base.host,
      path: base.pathname.replace(/\/+$/, ''),
      aliases: loopback ? LOOPBACK_NAMES.map((name) => (base.port ? `${name}:${base.port}` : name)) : [],
    };
    parsed.set(baseUrl, found);
  }
  return found;
}

export function isLoopbackBase(baseUrl: string): boolean {
  return parse(baseUrl).aliases.length > 0;
}

/** Every `host[:port]` the service answers to when its base URL is a loopback one, else none. */
export function loopbackAliases(baseUrl: string): string[] {
  return parse(baseUrl).aliases;
}

/**
 * The base URL under the name this request used: `baseUrl` itself, unless it is a loopback
 * address and the request's Host is another loopback name with the same port.
 */
export function baseUrlFor(req: { headers: IncomingHttpHeaders }, baseUrl: string): string {
  const base = parse(baseUrl);
  const host = req.headers.host?.toLowerCase();
  if (!host || host === base.host || !base.aliases.includes(host)) return baseUrl;
  return `${base.protocol}//${host}${base.path}`;
}

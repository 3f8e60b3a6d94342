/**
 * Redirect URI rules, for registrations and metadata documents alike:
 * - https anywhere (the known callbacks of Claude, ChatGPT and VS Code are https);
 * - http only to a loopback host, 127.0.0.1, [::1] or localhost (RFC 8252 sections 7.3 and 8.3);
 * - a private-use scheme such as `cursor://` for native apps (RFC 8252 section 7.1), except
 *   schemes a browser would execute or hand to another protocol (`javascript:`, `data:`, ...);
 * - never a fragment (RFC 6749 section 3.1.2) or userinfo (look-alikes such as
 *   `https://claude.ai@evil.example/`).
 * Matching is exact string comparison (OAuth 2.1 section 2.3.1; RFC 9700 section 4.1.3), except
 * that a loopback redirect may use any port (RFC 8252 section 7.3): native apps get one at run time.
 */
export const MAX_REDIRECT_URI_LENGTH = 2000;

const FORBIDDEN_SCHEMES = new Set([
  'javascript',
  'vbscript',
  'data',
  'file',
  'blob',
  'filesystem',
  'about',
  'view-source',
  'ftp',
  'ws',
  'wss',
  'mailto',
  'tel',
  'sms',
  'intent',
  'jar',
  'chrome',
  'chrome-extension',
  'moz-extension',
]);

/** `http://<loopback host>[:port]` followed by the path, query or nothing. */
const LOOPBACK = /^http:\/\/(127\.0\.0\.1|\[::1\]|localhost)(?::(\d{1,5}))?(?=[/?]|$)/;
const SCHEME = /^([a-z][a-z0-9+.-]*):/;
/** A URI is ASCII (RFC 3986): this also keeps homoglyph hosts such as Cyrillic "с" out. */
const UNSAFE_CHARACTERS = /[^\x21-\x7e]|["<>\\^`{|}]/;

/** Why this URI cannot be registered, or null when it can. */
export function redirectUriProblem(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0) return 'must be a non-empty string';
  if (value.length > MAX_REDIRECT_URI_LENGTH) return `must be at most ${MAX_REDIRECT_URI_LENGTH} characters`;
  if (UNSAFE_CHARACTERS.test(value))
    return 'must be ASCII, without spaces, control characters or unescaped special characters';
  if (value.includes('#')) return 'must not contain a fragment (#)';
  const scheme = SCHEME.exec(value)?.[1];
  if (!scheme) return 'must be an absolute URI with a lower-case scheme';
  if (FORBIDDEN_SCHEMES.has(scheme)) return `the ${scheme}: scheme is not allowed`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not a valid URI';
  }
  if (url.username || url.password || /^[a-z][a-z0-9+.-]*:\/\/[^/?]*@/.test(value)) {
    return 'must not contain a user name or password';
  }
  if (scheme === 'https') return url.hostname ? null : 'must name a host';
  if (scheme === 'http') {
    const loopback = LOOPBACK.exec(value);
    if (!loopback) return 'http is allowed only for 127.0.0.1, [::1] or localhost; use https';
    return loopback[2] !== undefined && !validPort(loopback[2]) ? 'has an invalid port' : null;
  }
  // Private-use scheme (RFC 8252 section 7.1): something must follow the scheme.
  return value.length > scheme.length + 1 ? null : 'must name a path after the scheme';
}

function validPort(port: string): boolean {
  const number = Number(port);
  return Number.isInteger(number) && number >= 1 && number <= 65535;
}

export function isLoopbackRedirect(uri: string): boolean {
  return LOOPBACK.test(uri);
}

/** True when `requested` is the registered URI, or differs from a loopback one in its port only. */
export function redirectUriMatches(registered: string, requested: string): boolean {
  if (registered === requested) return true;
  const a = LOOPBACK.exec(registered);
  const b = LOOPBACK.exec(requested);
  if (!a || !b || a[1] !== b[1]) return false;
  if (b[2] !== undefined && !validPort(b[2])) return false;
  const rest = (uri: string, match: RegExpExecArray) => uri.slice(match[0].length);
  return rest(registered, a) === rest(requested, b) && !requested.includes('#');
}

/** The registered URI that `requested` matches, if any. */
export function findRegisteredRedirect(registered: readonly string[], requested: string): string | undefined {
  return registered.find((candidate) => redirectUriMatches(candidate, requested));
}

export interface RedirectTarget {
  /** What to show people: `claude.ai`, `127.0.0.1:33418`, `cursor://anysphere.cursor-retrieval`. */
  host: string;
  kind: 'web' | 'loopback' | 'app';
}

export function describeRedirect(uri: string): RedirectTarget {
  if (isLoopbackRedirect(uri)) return { host: new URL(uri).host, kind: 'loopback' };
  const url = new URL(uri);
  if (url.protocol === 'https:' || url.protocol === 'http:') return { host: url.host, kind: 'web' };
  return { host: url.host ? `${url.protocol}//${url.host}` : url.protocol, kind: 'app' };
}

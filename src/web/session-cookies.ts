import { hkdfSync } from 'node:crypto';
import type { CookieOptions, Request } from 'express';

/**
 * Cookie names, flags and the keys derived from SESSION_SECRET, shared by the session,
 * CSRF and flash modules.
 *
 * Over https the names carry the `__Host-` prefix: browsers then accept the cookie only
 * with Secure, Path=/ and no Domain, so a sibling sub-domain cannot plant ("toss") a
 * session or CSRF cookie on us. Over plain http (local development) the prefix would
 * make browsers drop the cookie, so it is left off.
 */
export interface CookieSettings {
  secure: boolean;
  names: { session: string; csrf: string; flash: string };
}

export function cookieSettings(baseUrl: string): CookieSettings {
  const secure = baseUrl.startsWith('https:');
  const prefix = secure ? '__Host-' : '';
  return {
    secure,
    names: { session: `${prefix}quiz_session`, csrf: `${prefix}quiz_csrf`, flash: `${prefix}quiz_flash` },
  };
}

export function cookieOptions(settings: CookieSettings, maxAgeMs?: number): CookieOptions {
  return {
    httpOnly: true,
    sameSite: 'lax',
    secure: settings.secure,
    path: '/',
    ...(maxAgeMs === undefined ? {} : { maxAge: maxAgeMs }),
  };
}

/** The first value of a cookie (no cookie-parser dependency: this is all we need). */
export function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1 || part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(value);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export interface SessionKeys {
  /** HMAC key for pre-session CSRF tokens (login and sign-up forms). */
  csrf: Buffer;
  /** AES-256-GCM key for one-time flash messages. */
  flash: Buffer;
}

/**
 * The keys derived from the session secret. The secret has one source: SESSION_SECRET, or, outside
 * production, the one main.ts keeps in the data folder (so that restarts and workers agree).
 */
export function sessionKeys(sessionSecret: string | undefined): SessionKeys {
  if (!sessionSecret) {
    throw new Error('no session secret: main.ts resolves one before the app is made (tests use testConfig)');
  }
  const secret = Buffer.from(sessionSecret, 'utf8');
  const derive = (label: string) => Buffer.from(hkdfSync('sha256', secret, 'quiz-service', label, 32));
  return { csrf: derive('csrf v1'), flash: derive('flash v1') };
}

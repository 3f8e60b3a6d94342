import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The `state` of an LTI login: what the launch needs back from it (which platform, the nonce
 * sent, the login's own parameters for a retry in a window of its own), signed with a key derived
 * from the server's secret for this use alone, and living 10 minutes. The browser holds the same
 * value in a cookie, so a launch is taken only in the browser that started its login; the nonce
 * inside is claimed once by the launch.
 */
export const LAUNCH_STATE_LIFETIME_MS = 10 * 60 * 1000;
export const LAUNCH_STATE_COOKIE = 'lti_state';

export interface LaunchState {
  platformId: string;
  nonce: string;
  /** The login's parameters, to start it again in a new window when the cookie could not be kept. */
  login: Record<string, string>;
  expiresAt: number;
}

export function launchStateKey(serverSecret: string): Buffer {
  return Buffer.from(
    hkdfSync('sha256', Buffer.from(serverSecret, 'utf8'), 'quiz-service', 'lti state v1', 32),
  );
}

const sign = (key: Buffer, body: string) => createHmac('sha256', key).update(body).digest('base64url');

export function newLaunchState(
  key: Buffer,
  platformId: string,
  login: Record<string, string>,
  now = Date.now(),
): { state: string; nonce: string } {
  const nonce = randomBytes(24).toString('base64url');
  const payload: LaunchState = { platformId, nonce, login, expiresAt: now + LAUNCH_STATE_LIFETIME_MS };
  const body = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
  return { state: `${body}.${sign(key, body)}`, nonce };
}

/** The state as signed, or why it is refused: made up, altered, or too old. */
export function readLaunchState(
  key: Buffer,
  state: unknown,
  now = Date.now(),
): { ok: true; state: LaunchState } | { ok: false; problem: 'missing' | 'forged' | 'expired' } {
  if (typeof state !== 'string' || state === '') return { ok: false, problem: 'missing' };
  const [body, mac, extra] = state.split('.');
  if (!body || !mac || extra !== undefined) return { ok: false, problem: 'forged' };
  const expected = Buffer.from(sign(key, body));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given))
    return { ok: false, problem: 'forged' };
  const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as LaunchState;
  if (payload.expiresAt <= now) return { ok: false, problem: 'expired' };
  return { ok: true, state: payload };
}

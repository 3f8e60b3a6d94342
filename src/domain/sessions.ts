import { randomBytes } from 'node:crypto';
import type { Repositories, SessionRow } from '../db/repositories';
import { sha256Hex } from './api-keys';

/**
 * Dashboard login sessions. The cookie carries a random 256-bit token; the database keeps
 * only its SHA-256, so a leaked database (or backup) cannot be replayed as a login.
 * Each session has its own CSRF token (synchronizer token pattern).
 *
 * Lifetime: idle expiry slides by SESSION_IDLE_MS on use, but never past SESSION_MAX_MS
 * from login, so a stolen cookie cannot be kept alive forever by using it.
 */
export const SESSION_IDLE_MS = 14 * 24 * 60 * 60 * 1000;
export const SESSION_MAX_MS = 30 * 24 * 60 * 60 * 1000;
/** lastSeenAt/expiresAt are written at most this often per session (one write a minute, not per page). */
export const SESSION_TOUCH_INTERVAL_MS = 60_000;

export type SessionRecord = SessionRow;

type Users = Pick<Repositories, 'users'>;

export interface NewSession {
  /** The raw token for the cookie: returned once, never stored. */
  token: string;
  session: SessionRecord;
}

function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

function idleExpiry(createdAt: Date, now: Date): Date {
  return new Date(Math.min(now.getTime() + SESSION_IDLE_MS, createdAt.getTime() + SESSION_MAX_MS));
}

export async function createSession({ users }: Users, userId: string, now = new Date()): Promise<NewSession> {
  const token = randomToken();
  // Housekeeping where it is cheap: the user's own expired sessions go at each login.
  await users.deleteExpiredSessions(now, userId);
  const session = await users.createSession({
    userId,
    tokenHash: sha256Hex(token),
    csrfToken: randomToken(),
    createdAt: now,
    lastSeenAt: now,
    expiresAt: idleExpiry(now, now),
  });
  return { token, session };
}

/** The live session for a cookie token, or null (unknown or expired; an expired row is removed). */
export async function findSession(
  { users }: Users,
  token: string,
  now = new Date(),
): Promise<SessionRecord | null> {
  if (!token) return null;
  const session = await users.sessionByTokenHash(sha256Hex(token));
  if (!session) return null;
  if (session.expiresAt.getTime() <= now.getTime()) {
    await users.deleteSession(session.id);
    return null;
  }
  return session;
}

/**
 * Slides the idle expiry when the session was last seen over a minute ago; returns the new
 * expiry, or null when nothing was written (so callers refresh the cookie only then).
 */
export async function touchSession(
  { users }: Users,
  session: SessionRecord,
  now = new Date(),
): Promise<Date | null> {
  if (now.getTime() - session.lastSeenAt.getTime() < SESSION_TOUCH_INTERVAL_MS) return null;
  const expiresAt = idleExpiry(session.createdAt, now);
  await users.touchSession(session.id, now, expiresAt);
  return expiresAt;
}

export async function deleteSession({ users }: Users, token: string): Promise<void> {
  if (!token) return;
  await users.deleteSessionByTokenHash(sha256Hex(token));
}

import { randomBytes } from 'node:crypto';
import type { Db } from '../db/database';
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

export interface SessionRecord {
  id: string;
  userId: string;
  email: string;
  tokenHash: string;
  csrfToken: string;
  createdAt: Date;
  expiresAt: Date;
  lastSeenAt: Date;
}

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

export async function createSession(db: Db, userId: string, now = new Date()): Promise<NewSession> {
  const token = randomToken();
  // Housekeeping where it is cheap: the user's own expired sessions go at each login.
  await db.session.deleteMany({ where: { userId, expiresAt: { lte: now } } });
  const row = await db.session.create({
    data: {
      userId,
      tokenHash: sha256Hex(token),
      csrfToken: randomToken(),
      createdAt: now,
      lastSeenAt: now,
      expiresAt: idleExpiry(now, now),
    },
    include: { user: { select: { email: true } } },
  });
  return { token, session: { ...row, email: row.user.email } };
}

/** The live session for a cookie token, or null (unknown or expired; an expired row is removed). */
export async function findSession(db: Db, token: string, now = new Date()): Promise<SessionRecord | null> {
  if (!token) return null;
  const row = await db.session.findUnique({
    where: { tokenHash: sha256Hex(token) },
    include: { user: { select: { email: true } } },
  });
  if (!row) return null;
  if (row.expiresAt.getTime() <= now.getTime()) {
    await db.session.deleteMany({ where: { id: row.id } });
    return null;
  }
  return { ...row, email: row.user.email };
}

/**
 * Slides the idle expiry when the session was last seen over a minute ago; returns the new
 * expiry, or null when nothing was written (so callers refresh the cookie only then).
 */
export async function touchSession(db: Db, session: SessionRecord, now = new Date()): Promise<Date | null> {
  if (now.getTime() - session.lastSeenAt.getTime() < SESSION_TOUCH_INTERVAL_MS) return null;
  const expiresAt = idleExpiry(session.createdAt, now);
  await db.session.updateMany({ where: { id: session.id }, data: { lastSeenAt: now, expiresAt } });
  return expiresAt;
}

export async function deleteSession(db: Db, token: string): Promise<void> {
  if (!token) return;
  await db.session.deleteMany({ where: { tokenHash: sha256Hex(token) } });
}

/** Ends every session of a user (for "log out everywhere" and, later, password changes). */
export async function deleteUserSessions(db: Db, userId: string): Promise<number> {
  const result = await db.session.deleteMany({ where: { userId } });
  return result.count;
}

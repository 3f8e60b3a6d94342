import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import { cookieOptions, readCookie } from './session-cookies';
import { sessionState } from './session';

/**
 * One-time messages across a POST -> 303 -> GET ("Key created", the new key's value).
 *
 * Kept in a short-lived cookie encrypted with AES-256-GCM rather than in process memory,
 * so the GET may land on any instance behind the load balancer. The cookie is bound to
 * the session it was made for (the session's token hash is the GCM associated data), is
 * HttpOnly, expires in five minutes, and is cleared by the page that shows it: a reload
 * shows nothing. The full API key in it is the value the same browser is about to be
 * shown anyway.
 */
export type NoticeKind = 'success' | 'error' | 'info';

export interface Flash {
  notice?: { kind: NoticeKind; text: string };
  newApiKey?: { id: string; name: string; key: string };
  /** A webhook endpoint's signing secret, shown once after it is made or rotated. */
  newWebhookSecret?: { url: string; secret: string };
  /**
   * An LTI Dynamic Registration address (a one-time capability), shown once after it is made:
   * the database keeps only its token's hash, this sealed cookie the address until it is shown.
   */
  newLtiRegistration?: { url: string; expiresAt: string };
  /** What the receiver answered to "Send test event". */
  webhookTest?: { ok: boolean; summary: string; snippet: string | null };
}

const FLASH_TTL_MS = 5 * 60 * 1000;

function boundTo(res: Response): Buffer {
  return Buffer.from(sessionState(res).session?.tokenHash ?? 'no-session');
}

export function setFlash(res: Response, flash: Flash): void {
  const state = sessionState(res);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', state.keys.flash, iv);
  cipher.setAAD(boundTo(res));
  const plain = JSON.stringify({ ...flash, exp: Date.now() + FLASH_TTL_MS });
  const sealed = Buffer.concat([iv, cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  res.cookie(
    state.cookies.names.flash,
    sealed.toString('base64url'),
    cookieOptions(state.cookies, FLASH_TTL_MS),
  );
}

/** The flash for this session, once: it is cleared in the same response. */
export function takeFlash(req: Request, res: Response): Flash | null {
  const state = sessionState(res);
  const value = readCookie(req, state.cookies.names.flash);
  if (value === undefined) return null;
  res.clearCookie(state.cookies.names.flash, cookieOptions(state.cookies));
  try {
    const sealed = Buffer.from(value, 'base64url');
    if (sealed.length < 12 + 16 + 2) return null;
    const decipher = createDecipheriv('aes-256-gcm', state.keys.flash, sealed.subarray(0, 12));
    decipher.setAAD(boundTo(res));
    decipher.setAuthTag(sealed.subarray(sealed.length - 16));
    const plain = Buffer.concat([decipher.update(sealed.subarray(12, sealed.length - 16)), decipher.final()]);
    const parsed = JSON.parse(plain.toString('utf8')) as Flash & { exp?: number };
    if (typeof parsed.exp !== 'number' || parsed.exp < Date.now()) return null;
    const { exp: _exp, ...flash } = parsed;
    return flash;
  } catch {
    // Tampered, made for another session, or sealed with a previous secret: show nothing.
    return null;
  }
}

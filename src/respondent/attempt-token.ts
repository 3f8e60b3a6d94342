import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/**
 * The attempt token: `<attempt id>.<expiry, epoch seconds>.<HMAC-SHA256>`, signed with a key
 * derived from the server's secret. It travels in the form and the page address, never in a
 * cookie, so it works inside an embedding frame too. The signature stops guessing other
 * attempts' ids; the expiry bounds how long a leaked address is worth anything. The attempt row
 * still decides (deadline, one submission): the token only names it.
 */
export interface AttemptTokens {
  sign(attemptId: string, expiresAt: Date): string;
  /** The attempt a genuine token names and whether it has expired; null when malformed or forged. */
  verify(token: unknown, now: number): { attemptId: string; expired: boolean } | null;
}

const SHAPE = /^([a-z0-9]{1,40})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

export function attemptTokens(serverSecret: string | undefined): AttemptTokens {
  if (!serverSecret) throw new Error('no server secret: main.ts resolves one before the app is made');
  const key = Buffer.from(
    hkdfSync('sha256', Buffer.from(serverSecret, 'utf8'), 'quiz-service', 'attempt v1', 32),
  );
  const mac = (payload: string) => createHmac('sha256', key).update(payload).digest('base64url');
  return {
    sign(attemptId, expiresAt) {
      const payload = `${attemptId}.${Math.ceil(expiresAt.getTime() / 1000)}`;
      return `${payload}.${mac(payload)}`;
    },
    verify(token, now) {
      if (typeof token !== 'string') return null;
      const match = SHAPE.exec(token);
      if (!match) return null;
      const [, id, expiry, signature] = match;
      const expected = Buffer.from(mac(`${id}.${expiry}`));
      if (!timingSafeEqual(expected, Buffer.from(signature!))) return null;
      return { attemptId: id!, expired: Number(expiry) * 1000 < now };
    },
  };
}

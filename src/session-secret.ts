import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * SESSION_SECRET is required in production. Elsewhere one is generated once and kept in the
 * data folder, so that restarts and several worker processes agree on
 * it: form tokens and one-time messages made by one process verify in another.
 */
export function ensureSessionSecret(configured: string | undefined, dataDir = path.resolve('data')): string {
  if (configured) return configured;
  const file = path.join(dataDir, 'session-secret');
  try {
    const existing = fs.readFileSync(file, 'utf8').trim();
    if (existing.length >= 32) return existing;
  } catch {
    // not there yet
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  try {
    // `wx`: when two processes race, the first file wins and both read it back.
    fs.writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  } catch {
    // written by a concurrent start
  }
  return fs.readFileSync(file, 'utf8').trim();
}

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureSessionSecret } from '../../src/session-secret';

describe('session secret', () => {
  test('a configured secret is used as is', () => {
    expect(ensureSessionSecret('x'.repeat(40), '/nonexistent')).toBe('x'.repeat(40));
  });

  test('without one, a secret is generated once in the data folder (mode 600) and reused', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quiz-secret-'));
    try {
      const first = ensureSessionSecret(undefined, path.join(dir, 'data'));
      expect(first.length).toBeGreaterThanOrEqual(32);
      expect(ensureSessionSecret(undefined, path.join(dir, 'data'))).toBe(first);
      expect(fs.statSync(path.join(dir, 'data', 'session-secret')).mode & 0o777).toBe(0o600);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

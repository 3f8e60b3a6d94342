/**
 * A NUL character (U+0000) is refused in any text the service receives. PostgreSQL cannot store
 * one in a text column (it fails the whole statement), SQLite would store it, and no quiz, name
 * or credential needs one; refusing it everywhere keeps both databases alike.
 */
export const NUL_MESSAGE = 'must not contain a NUL character (\\u0000 or %00)';

/** The path of the first string (or object key) holding a NUL, e.g. `questions[2].text`; else undefined. */
export function nulField(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path || '(the value)' : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const found = nulField(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      const field = path ? `${path}.${key}` : key;
      if (key.includes('\u0000')) return field;
      const found = nulField(inner, field);
      if (found) return found;
    }
  }
  return undefined;
}

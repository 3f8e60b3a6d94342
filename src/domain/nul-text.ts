/**
 * A NUL character (U+0000) is refused in any text the service receives. PostgreSQL cannot store
 * one in a text column (it fails the whole statement), SQLite would store it, and no quiz, name
 * or credential needs one; refusing it everywhere keeps both databases alike.
 */
export const NUL_MESSAGE = 'must not contain a NUL character (\\u0000 or %00)';

interface Visit {
  value: unknown;
  /** How this value was reached: its parent's visit and its key or index there. */
  parent: Visit | undefined;
  segment: string | number | undefined;
}

function pathOf(visit: Visit): string {
  const segments: Array<string | number> = [];
  for (let at: Visit | undefined = visit; at?.segment !== undefined; at = at.parent)
    segments.push(at.segment);
  return segments
    .reverse()
    .map((segment, index) =>
      typeof segment === 'number' ? `[${segment}]` : index === 0 ? segment : `.${segment}`,
    )
    .join('');
}

/**
 * The path of the first string (or object key) holding a NUL, e.g. `questions[2].text`; else
 * undefined. A loop over an explicit stack, not recursion: a body nested a hundred thousand
 * levels deep must get an answer, not exhaust the call stack.
 */
export function nulField(value: unknown): string | undefined {
  const stack: Visit[] = [{ value, parent: undefined, segment: undefined }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const current = visit.value;
    if (typeof current === 'string') {
      if (current.includes('\u0000')) return pathOf(visit) || '(the value)';
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i -= 1)
        stack.push({ value: current[i], parent: visit, segment: i });
    } else if (current !== null && typeof current === 'object') {
      const entries = Object.entries(current);
      for (let i = entries.length - 1; i >= 0; i -= 1) {
        const [key, inner] = entries[i]!;
        if (key.includes('\u0000')) return pathOf({ value: inner, parent: visit, segment: key });
        stack.push({ value: inner, parent: visit, segment: key });
      }
    }
  }
  return undefined;
}

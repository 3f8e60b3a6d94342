/**
 * Text the service cannot store faithfully is refused, naming the field, at every door:
 * - a NUL character (U+0000): PostgreSQL cannot store one in a text column (it fails the whole
 *   statement), SQLite would; refusing it everywhere keeps both databases alike;
 * - a lone surrogate (`"\ud800"` in JSON): not a character at all; a database driver would
 *   store U+FFFD in its place, so what was saved would differ from what was sent, silently.
 * Bytes that are not UTF-8 are refused where bodies are read (http/text-guard.ts), for the
 * same reason. No quiz, name or credential needs any of these.
 */
export const NUL_MESSAGE = 'must not contain a NUL character (\\u0000 or %00)';
export const LONE_SURROGATE_MESSAGE =
  'must be well-formed Unicode: it holds a lone surrogate (such as \\ud800), which is no character';
export const NOT_UTF8_MESSAGE = 'must be UTF-8 text: it holds bytes (such as %FF) that are not UTF-8';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a string cannot be stored as it is, or undefined when it can. */
export function unstorableReason(text: string): string | undefined {
  if (text.includes('\u0000')) return NUL_MESSAGE;
  if (LONE_SURROGATE.test(text)) return LONE_SURROGATE_MESSAGE;
  return undefined;
}

export interface UnstorableField {
  /** Where, in the caller's terms: `questions[2].text`, or `(the value)` for a bare string. */
  field: string;
  message: string;
}

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
 * The first string (or object key) that cannot be stored, e.g. `questions[2].text`, with the
 * reason; else undefined. A loop over an explicit stack, not recursion: a body nested a hundred
 * thousand levels deep must get an answer, not exhaust the call stack.
 */
export function unstorableField(value: unknown): UnstorableField | undefined {
  const stack: Visit[] = [{ value, parent: undefined, segment: undefined }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const current = visit.value;
    if (typeof current === 'string') {
      const message = unstorableReason(current);
      if (message) return { field: pathOf(visit) || '(the value)', message };
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i -= 1)
        stack.push({ value: current[i], parent: visit, segment: i });
    } else if (current !== null && typeof current === 'object') {
      const entries = Object.entries(current);
      for (let i = entries.length - 1; i >= 0; i -= 1) {
        const [key, inner] = entries[i]!;
        const message = unstorableReason(key);
        if (message) return { field: pathOf({ value: inner, parent: visit, segment: key }), message };
        stack.push({ value: inner, parent: visit, segment: key });
      }
    }
  }
  return undefined;
}

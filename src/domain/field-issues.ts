import type { z } from 'zod';
import type { FieldIssue } from './errors';

/** `questions[2].options` from zod's path `['questions', 2, 'options']`; `whole` names the empty path. */
export function formatPath(path: ReadonlyArray<PropertyKey>, whole = '(arguments)'): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out || whole;
}

function valueAt(input: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

export interface FieldIssueWording {
  /** What the empty path is called: the tool's arguments, a request body. */
  whole?: string;
  /** The message for a field the schema does not know. */
  unknownField?: string;
}

/**
 * The one reading of zod issues: field by field, in the caller's own terms, each saying what to
 * fix. A missing field reads "is required" (zod would say which type it expected of nothing),
 * and each unknown key is its own issue, so a misspelt name is pointed at directly.
 */
export function toFieldIssues(
  error: z.ZodError,
  input: unknown,
  wording: FieldIssueWording = {},
): FieldIssue[] {
  const whole = wording.whole ?? '(arguments)';
  const unknownField = wording.unknownField ?? 'is not a known field: remove it';
  return error.issues.flatMap((issue): FieldIssue[] => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        field: formatPath([...issue.path, key], whole),
        message: unknownField,
      }));
    }
    if (issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined) {
      return [{ field: formatPath(issue.path, whole), message: 'is required' }];
    }
    return [{ field: formatPath(issue.path, whole), message: issue.message }];
  });
}

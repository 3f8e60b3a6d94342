import { z } from 'zod';
import type { FieldIssue, FieldIssueCode } from './errors';

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
  /**
   * The schema the input was checked with: an unknown field is then answered with the closest
   * names it takes at that level, as the caller likely misspelt one of them.
   */
  schema?: z.ZodType;
  /**
   * The names an object takes, narrowed by its own content (a question takes its own type's
   * fields only), with what to say when none is close; the schema's names otherwise.
   */
  fieldsOf?: (value: unknown, names: readonly string[]) => { names: readonly string[]; hint?: string };
}

/**
 * A custom issue a refinement raises to say how a field must be written for this kind of object
 * (`params: { first: true }`): it is listed before every other issue, and stands for the
 * generic issues found under the same field, which would say less.
 */
export const FIRST = { first: true } as const;

function isFirst(issue: z.core.$ZodIssue): boolean {
  return issue.code === 'custom' && (issue.params as { first?: unknown } | undefined)?.first === true;
}

function under(path: ReadonlyArray<PropertyKey>, prefix: ReadonlyArray<PropertyKey>): boolean {
  return prefix.length <= path.length && prefix.every((part, index) => path[index] === part);
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
  const first = error.issues.filter(isFirst);
  const rest = error.issues.filter(
    (issue) => !isFirst(issue) && !first.some((hint) => under(issue.path, hint.path)),
  );
  return [...first, ...rest].flatMap((issue): FieldIssue[] => {
    if (issue.code === 'unrecognized_keys') {
      const known = wording.schema ? namesAt(wording.schema, issue.path) : [];
      const { names, hint } = wording.fieldsOf?.(valueAt(input, issue.path), known) ?? { names: known };
      return issue.keys.map((key) => {
        const closest = closestNames(key, names);
        const message =
          closest.length > 0
            ? `is not a known field: did you mean ${closest.map((name) => `\`${name}\``).join(' or ')}?`
            : hint
              ? `is not a known field: remove it; ${hint}`
              : unknownField;
        return { field: formatPath([...issue.path, key], whole), message, code: 'unknown_field' as const };
      });
    }
    const field = formatPath(issue.path, whole);
    if (issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined) {
      return [{ field, message: 'is required', code: 'missing' }];
    }
    return [{ field, message: issue.message, ...coded(issue) }];
  });
}

/**
 * What the issue is, as a code and its figures: zod's own issues by their kind, a refinement's
 * by the `code` its params carry (with the figures beside it).
 */
function coded(issue: z.core.$ZodIssue): Pick<FieldIssue, 'code' | 'params'> {
  switch (issue.code) {
    case 'custom': {
      const { code, first: _first, ...params } = (issue.params ?? {}) as Record<string, unknown>;
      const figures = Object.fromEntries(
        Object.entries(params).filter(
          (entry): entry is [string, string | number] =>
            typeof entry[1] === 'string' || typeof entry[1] === 'number',
        ),
      );
      return {
        code: typeof code === 'string' ? (code as FieldIssueCode) : 'invalid',
        ...(Object.keys(figures).length > 0 ? { params: figures } : {}),
      };
    }
    case 'invalid_type':
      if (issue.expected === 'number') return { code: 'not_a_number' };
      if (issue.expected === 'int') return { code: 'not_whole' };
      return { code: 'invalid' };
    case 'too_small':
      if (issue.origin === 'string') return { code: 'missing' };
      if (issue.origin === 'array' || issue.origin === 'set') {
        return { code: 'too_few', params: { min: Number(issue.minimum) } };
      }
      return { code: 'too_small', params: { min: Number(issue.minimum) } };
    case 'too_big':
      if (issue.origin === 'string') return { code: 'too_long', params: { max: Number(issue.maximum) } };
      if (issue.origin === 'array' || issue.origin === 'set') {
        return { code: 'too_many', params: { max: Number(issue.maximum) } };
      }
      return { code: 'too_large', params: { max: Number(issue.maximum) } };
    case 'invalid_value':
      return { code: 'not_one_of', params: { values: issue.values.map(String).join(', ') } };
    case 'unrecognized_keys':
      return { code: 'unknown_field' };
    default:
      return { code: 'invalid' };
  }
}

/** The schema found at `path` under `schema`, through arrays and optional, nullable or default wrappers. */
function schemaAt(schema: z.ZodType, path: ReadonlyArray<PropertyKey>): z.ZodType | undefined {
  let node: z.ZodType | undefined = unwrap(schema);
  for (const part of path) {
    if (!node) return undefined;
    if (node instanceof z.ZodArray && typeof part === 'number') node = unwrap(node.element as z.ZodType);
    else if (node instanceof z.ZodObject && typeof part === 'string') {
      const field: z.ZodType | undefined = (node.shape as Record<string, z.ZodType>)[part];
      node = field ? unwrap(field) : undefined;
    } else return undefined;
  }
  return node;
}

function unwrap(schema: z.ZodType): z.ZodType {
  let node = schema;
  while (
    node instanceof z.ZodOptional ||
    node instanceof z.ZodNullable ||
    node instanceof z.ZodDefault ||
    node instanceof z.ZodPrefault
  ) {
    node = node.unwrap() as z.ZodType;
  }
  return node;
}

/** The field names the object at `path` takes; none when the path leads elsewhere. */
export function namesAt(schema: z.ZodType, path: ReadonlyArray<PropertyKey>): string[] {
  const node = schemaAt(schema, path);
  return node instanceof z.ZodObject ? Object.keys(node.shape) : [];
}

/** Edits (insert, delete, change, swap of neighbours) that turn `a` into `b`. */
function distance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      }
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/** Comparable form of a field name: case, and spaces, dashes and underscores, do not count. */
const nameKey = (name: string) => name.toLowerCase().replace(/[\s_-]+/g, '');

/**
 * The names closest to a misspelt one (at most two, nearest first): those within a few edits
 * for its length, or that one contains whole (`answer` in `correct_answer`).
 */
export function closestNames(wrong: string, names: readonly string[]): string[] {
  const key = nameKey(wrong);
  if (key.length === 0) return [];
  const allowed = Math.max(1, Math.min(3, Math.floor(key.length / 3)));
  return names
    .map((name) => {
      const other = nameKey(name);
      const edits = distance(key, other);
      const contained =
        Math.min(key.length, other.length) >= 4 && (other.includes(key) || key.includes(other))
          ? 0.5
          : Infinity;
      return { name, score: Math.min(edits <= allowed ? edits : Infinity, contained) };
    })
    .filter((candidate) => candidate.score !== Infinity && candidate.name !== wrong)
    .sort((a, b) => a.score - b.score)
    .slice(0, 2)
    .map((candidate) => candidate.name);
}

import { z } from 'zod';
import { TYPED_FIELDS, type TypedField } from './definition';
import { QUESTION_TYPE_DEFINITIONS, QUESTION_TYPE_FIELDS, type AnyTypeFields } from './index';
import type { InputField } from './shared-fields';

/**
 * How the surfaces merge the types' schemas (each type's fields.ts) over the registry: the flat
 * question object's typed fields, each once, and one union of records or of statistics with a
 * branch per type, in the definitions' order. The types are computed from the types' own
 * schemas, so what a surface publishes and what its code reads cannot drift apart.
 */

type UnionToIntersection<U> = (U extends unknown ? (value: U) => void : never) extends (
  value: infer I,
) => void
  ? I
  : never;
type Flat<T> = { [K in keyof T]: T[K] };

type MergedInput = Flat<UnionToIntersection<AnyTypeFields['input']>>;

/** Every typed field's schema, as the flat question object takes it. */
export type TypedInputShape = {
  [K in keyof MergedInput]: MergedInput[K] extends InputField<infer S> ? S : never;
};

/** Adds each field to `merged`; a name already there must be the same (shared) object. */
function mergeOnce<F>(merged: Map<string, F>, fields: Readonly<Record<string, F>>): void {
  for (const [name, field] of Object.entries(fields)) {
    const known = merged.get(name);
    if (known !== undefined && known !== field) {
      throw new Error(`${name} has two schemas: share one (shared-fields.ts)`);
    }
    merged.set(name, field);
  }
}

/** The names of the types that take a typed field, in the registry's order. */
export const takenBy = (field: TypedField) =>
  QUESTION_TYPE_DEFINITIONS.filter((definition) => definition.takes.includes(field))
    .map((definition) => definition.name)
    .join(', ');

/**
 * The typed fields of the flat question object, in TYPED_FIELDS' order, each described after the
 * types that take it. A field several types take is one shared object (shared-fields.ts): two
 * schemas under one name, a field no type defines, or a field a type takes without defining it
 * (or the reverse) fails at load.
 */
export function typedInputShape(): TypedInputShape {
  const merged = new Map<string, InputField>();
  for (const [index, fields] of QUESTION_TYPE_FIELDS.entries()) {
    const definition = QUESTION_TYPE_DEFINITIONS[index]!;
    const named = Object.keys(fields.input).sort();
    if (named.join() !== [...definition.takes].sort().join()) {
      throw new Error(
        `${definition.name}'s fields.ts defines ${named.join(', ')}; it takes ${definition.takes.join(', ')}`,
      );
    }
    mergeOnce(merged, fields.input as Record<string, InputField>);
  }
  const missing = TYPED_FIELDS.filter((name) => !merged.has(name));
  if (missing.length > 0 || merged.size !== TYPED_FIELDS.length) {
    throw new Error(
      `TYPED_FIELDS and the types' fields.ts differ: ${missing.join(', ') || [...merged.keys()].join(', ')}`,
    );
  }
  return Object.fromEntries(
    TYPED_FIELDS.map((name) => {
      const field = merged.get(name)!;
      return [name, field.schema.describe(field.describe(takenBy(name)))];
    }),
  ) as TypedInputShape;
}

type MergedAnswer = Flat<UnionToIntersection<AnyTypeFields['answer']>>;

/** The typed fields of get_results' answers, as the types' fields.ts define them. */
export type AnswerShape = {
  [K in keyof MergedAnswer]: MergedAnswer[K] extends InputField<infer S> ? S : never;
};

/**
 * The typed fields of get_results' answers (each type's `answer`), each once and described after
 * the types that have it, in the registry's order; `order` places them, and must name each once.
 */
export function answerShape(order: ReadonlyArray<keyof AnswerShape>): AnswerShape {
  const merged = new Map<string, InputField>();
  const takers = new Map<string, string[]>();
  for (const [index, fields] of QUESTION_TYPE_FIELDS.entries()) {
    mergeOnce(merged, fields.answer as Record<string, InputField>);
    for (const name of Object.keys(fields.answer)) {
      takers.set(name, [...(takers.get(name) ?? []), QUESTION_TYPE_DEFINITIONS[index]!.name]);
    }
  }
  if ([...order].sort().join() !== [...merged.keys()].sort().join()) {
    throw new Error(`The answers' fields are ${[...merged.keys()].join(', ')}; placed: ${order.join(', ')}`);
  }
  return Object.fromEntries(
    order.map((name) => {
      const field = merged.get(name)!;
      return [name, field.schema.describe(field.describe(takers.get(name)!.join(', ')))];
    }),
  ) as AnswerShape;
}

type Part = 'record' | 'statistics';

type OutputOf<P> = P extends z.ZodRawShape ? z.output<z.ZodObject<P>> : never;

/** A question's own figures in the statistics, `type` with them: one branch per type. */
export type TypeStatistics = OutputOf<AnyTypeFields['statistics']>;

/** One branch: the head's fields, then the type's own `part`; distributed over the types. */
type Branch<H extends z.ZodRawShape, P> = P extends z.ZodRawShape ? z.ZodObject<Flat<H & P>> : never;
type Branches<H extends z.ZodRawShape, K extends Part> = Branch<H, AnyTypeFields[K]>;

/**
 * A discriminated union on `type` of one object per type, in the definitions' order: `head`'s
 * fields (what every question has), then the type's own `part` of its fields.ts.
 */
export function unionOverTypes<H extends z.ZodRawShape, K extends Part>(head: H, part: K) {
  const branches = QUESTION_TYPE_FIELDS.map((fields) => z.object({ ...head, ...fields[part] }));
  return z.discriminatedUnion('type', branches as unknown as [Branches<H, K>, ...Array<Branches<H, K>>]);
}

/**
 * What the JSON attempt shows of a question besides its id, type and text, merged over the
 * types in their order: each field once, and the fields named by a pattern.
 */
export function attemptFields(): {
  fields: ReadonlyMap<string, z.ZodType>;
  patterns: ReadonlyMap<string, z.ZodType>;
} {
  const fields = new Map<string, z.ZodType>();
  const patterns = new Map<string, z.ZodType>();
  for (const type of QUESTION_TYPE_FIELDS) {
    mergeOnce(fields, type.attempt);
    if ('attemptPatterns' in type) mergeOnce(patterns, type.attemptPatterns);
  }
  return { fields, patterns };
}

/**
 * Rewrites a JSON Schema so that every `type` names one type: `{"type": ["string", "null"]}`
 * becomes `{"anyOf": [{"type": "string"}, {"type": "null"}]}`. Both mean the same, but clients
 * that map tool schemas onto a single-type dialect (Gemini's function declarations, for one)
 * reject or weaken the array form. Annotations stay on the outer schema; constraints go to the
 * branch of the type they constrain.
 */
const ANNOTATIONS = new Set([
  'title',
  'description',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
]);

type Schema = Record<string, unknown>;

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function rewrite(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewrite);
  if (!isSchema(value)) return value;
  const node: Schema = {};
  for (const [key, child] of Object.entries(value)) {
    // zod's int() bounds every integer by ±2^53-1: true of every JSON number a client sends, so
    // they tell a client nothing and cost a line each.
    if (key === 'minimum' && child === -Number.MAX_SAFE_INTEGER) continue;
    if (key === 'maximum' && child === Number.MAX_SAFE_INTEGER) continue;
    node[key] = rewrite(child);
  }
  const types = node.type;
  if (!Array.isArray(types)) return node;
  if (types.length === 1) return { ...node, type: types[0] };

  const outer: Schema = {};
  const constraints: Schema = {};
  for (const [key, child] of Object.entries(node)) {
    if (key === 'type') continue;
    if (ANNOTATIONS.has(key)) outer[key] = child;
    else constraints[key] = child;
  }
  // A null branch takes none of the other type's keywords (a `format`, a `minimum`, `properties`).
  const branches = types.map((type) => (type === 'null' ? { type } : { type, ...constraints }));
  return { ...outer, anyOf: branches };
}

export function portableJsonSchema(schema: Schema): Schema {
  return rewrite(schema) as Schema;
}

/**
 * A published output schema describes the answer's shape for clients that validate it, not every
 * guarantee the service makes: objects stay open (`additionalProperties: false` is dropped, so a
 * field added later breaks no client), and `required` goes, since it repeats each field's name
 * and a model reads the fields it finds. It keeps to the portable subset the Inspector's
 * `--strict` checks, as input schemas do: one `type` per schema (a nullable field is an `anyOf`
 * with a null branch) and no schema that constrains nothing. For room in tools/list, an object
 * or array inside the answer is known by its `properties` or `items` alone (`"type": "object"`
 * stays on the answer itself, as MCP requires), and a subschema written more than once, such as
 * a nullable number, is written once under `$defs` and referred to (`sharedDefinitions`).
 */
export function publishedOutputSchema(schema: Schema): Schema {
  return sharedDefinitions(openObjects(schema, true) as Schema);
}

function openObjects(value: unknown, root = false): unknown {
  if (Array.isArray(value)) return value.map((item) => openObjects(item));
  if (!isSchema(value)) return value;
  const node: Schema = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === 'required' || (key === 'additionalProperties' && child === false)) continue;
    if (!root && key === 'type' && implied(value) === child) continue;
    // `items: {}` says what its absence says: any item.
    if (key === 'items' && isSchema(child) && Object.keys(child).length === 0) continue;
    node[key] =
      key === 'properties' && isSchema(child)
        ? Object.fromEntries(Object.entries(child).map(([name, field]) => [name, openObjects(field)]))
        : openObjects(child);
  }
  return node;
}

/** The type a schema's own keywords already say: `properties` only applies to objects, `items` to arrays. */
function implied(node: Schema): string | undefined {
  if (isSchema(node.properties)) return 'object';
  if (isSchema(node.items) && Object.keys(node.items).length > 0) return 'array';
  return undefined;
}

/** The subschemas of a node: its properties' schemas, items, and the branches of a union. */
function subschemaSlots(node: Schema): Array<[Schema | unknown[], string | number]> {
  const slots: Array<[Schema | unknown[], string | number]> = [];
  if (isSchema(node.properties))
    for (const name of Object.keys(node.properties)) slots.push([node.properties, name]);
  if (isSchema(node.items)) slots.push([node, 'items']);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const branches = node[key];
    if (Array.isArray(branches)) branches.forEach((_, i) => slots.push([branches, i]));
  }
  return slots;
}

/**
 * A definition's name, short since each reference repeats it: a nullable primitive by its type's
 * initial ("s" for a string or null, "n" for a number or null), any other subschema by its order.
 */
function definitionName(schema: Schema, taken: Set<string>): string {
  const branches = schema.anyOf;
  if (Object.keys(schema).length === 1 && Array.isArray(branches) && branches.length === 2) {
    const [first, second] = branches as Schema[];
    const single = (branch: Schema | undefined) => Object.keys(branch ?? {}).length === 1;
    if (single(first) && single(second) && typeof first!.type === 'string' && second!.type === 'null') {
      const initial = first!.type.charAt(0);
      if (!taken.has(initial)) return initial;
    }
  }
  let n = 1;
  while (taken.has(`d${n}`)) n += 1;
  return `d${n}`;
}

/**
 * Writes each subschema that occurs more than once under `$defs`, referred to by `$ref` wherever
 * it occurs, when that makes the schema shorter; one at a time, the biggest saving first, so that
 * a repeated object and the repeated fields inside it are both found.
 */
export function sharedDefinitions(schema: Schema): Schema {
  const root = structuredClone(schema);
  const defs: Schema = {};
  const bytes = (value: unknown) => JSON.stringify(value).length;
  for (;;) {
    const seen = new Map<string, number>();
    const count = (node: unknown) => {
      if (!isSchema(node)) return;
      for (const [holder, key] of subschemaSlots(node)) {
        const child = (holder as Record<string | number, unknown>)[key];
        if (!isSchema(child) || '$ref' in child) continue;
        const text = JSON.stringify(child);
        seen.set(text, (seen.get(text) ?? 0) + 1);
        count(child);
      }
    };
    count(root);
    for (const def of Object.values(defs)) count(def);
    let best: { text: string; key: string; saving: number } | undefined;
    const taken = new Set(Object.keys(defs));
    for (const [text, times] of seen) {
      if (times < 2) continue;
      const key = definitionName(JSON.parse(text) as Schema, taken);
      const refBytes = bytes({ $ref: `#/$defs/${key}` });
      // The entry under $defs ("key":schema and a comma), and "$defs":{} for the first.
      const entryBytes = bytes(key) + 2 + text.length + (taken.size === 0 ? 10 : 0);
      const saving = times * (text.length - refBytes) - entryBytes;
      if (saving > 0 && (!best || saving > best.saving)) best = { text, key, saving };
    }
    if (!best) break;
    const { text: sharedText, key } = best;
    const shared = JSON.parse(sharedText) as Schema;
    const replace = (node: unknown) => {
      if (!isSchema(node)) return;
      for (const [holder, slot] of subschemaSlots(node)) {
        const place = holder as Record<string | number, unknown>;
        const child = place[slot];
        if (isSchema(child) && JSON.stringify(child) === sharedText) place[slot] = { $ref: `#/$defs/${key}` };
        else replace(child);
      }
    };
    replace(root);
    for (const def of Object.values(defs)) replace(def);
    defs[key] = shared;
  }
  return Object.keys(defs).length === 0 ? root : { ...root, $defs: defs };
}

/**
 * The schema with each `#/$defs/...` reference replaced by its definition, and no `$defs`: for a
 * document that embeds the schema below its own root (the OpenAPI description), where such a
 * reference would point into that document instead.
 */
export function inlineDefinitions(schema: Schema): Schema {
  const defs = isSchema(schema.$defs) ? schema.$defs : {};
  const inline = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(inline);
    if (!isSchema(value)) return value;
    const name = typeof value.$ref === 'string' ? /^#\/\$defs\/(.+)$/.exec(value.$ref)?.[1] : undefined;
    if (name !== undefined && name in defs) return inline(defs[name]);
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => key !== '$defs')
        .map(([key, child]) => [key, inline(child)]),
    );
  };
  return inline(schema) as Schema;
}

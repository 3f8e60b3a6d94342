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
 * and a model reads the fields it finds.
 */
export function publishedOutputSchema(schema: Schema): Schema {
  return openObjects(schema) as Schema;
}

function openObjects(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(openObjects);
  if (!isSchema(value)) return value;
  const node: Schema = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === 'required' || (key === 'additionalProperties' && child === false)) continue;
    node[key] =
      key === 'properties' && isSchema(child)
        ? Object.fromEntries(Object.entries(child).map(([name, field]) => [name, openObjects(field)]))
        : openObjects(child);
  }
  return node;
}

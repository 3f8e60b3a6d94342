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
  for (const [key, child] of Object.entries(value)) node[key] = rewrite(child);
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

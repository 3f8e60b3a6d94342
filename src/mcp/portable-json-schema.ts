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
 * and a model reads the fields it finds. A nullable field is written `"type": ["string", "null"]`:
 * answers are read by validators and models, not mapped onto a single-type dialect as arguments
 * are, and the short form leaves room in tools/list for every field an answer carries. For the
 * same room, an object or array inside the answer is known by its `properties` or `items` alone
 * (`"type": "object"` stays on the answer itself, as MCP requires, and on nullable ones).
 */
export function publishedOutputSchema(schema: Schema): Schema {
  return openObjects(schema, true) as Schema;
}

function openObjects(value: unknown, root = false): unknown {
  if (Array.isArray(value)) return value.map((item) => openObjects(item));
  if (!isSchema(value)) return value;
  const node: Schema = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === 'required' || (key === 'additionalProperties' && child === false)) continue;
    if (!root && key === 'type' && implied(value) === child) continue;
    node[key] =
      key === 'properties' && isSchema(child)
        ? Object.fromEntries(Object.entries(child).map(([name, field]) => [name, openObjects(field)]))
        : openObjects(child);
  }
  return nullableAsTypes(node);
}

/** The type a schema's own keywords already say: `properties` only applies to objects, `items` to arrays. */
function implied(node: Schema): string | undefined {
  if (isSchema(node.properties)) return 'object';
  if (isSchema(node.items)) return 'array';
  return undefined;
}

/** `{"anyOf": [{"type": "string", ...}, {"type": "null"}], ...}` as `{"type": ["string", "null"], ...}`. */
function nullableAsTypes(node: Schema): Schema {
  const branches = node.anyOf;
  if (!Array.isArray(branches) || branches.length !== 2) return node;
  const other = branches.find((branch) => !isSchema(branch) || branch.type !== 'null');
  const nullable = branches.some((branch) => isSchema(branch) && branch.type === 'null');
  if (!nullable || !isSchema(other)) return node;
  const type = typeof other.type === 'string' ? other.type : implied(other);
  if (!type) return node;
  const { anyOf: _branches, ...outer } = node;
  return { ...other, ...outer, type: [type, 'null'] };
}

// The public contract as clients see it. A change to any tool's name, title, description,
// schema or annotations changes this snapshot: update it deliberately (`npx jest -u`),
// bump TOOLSET_VERSION and note it in CHANGELOG.md.
import { postMcp } from '../helpers/http';
import {
  createTestUser,
  DEFAULT_TOOLS,
  SPEC_TOOLS,
  sseMessages,
  startTestApp,
  TOOLSET_TOOLS,
  type TestApp,
} from '../helpers/test-app';
import { connectClient, ERAS, forEachEra, type AnyClient } from '../helpers/mcp-clients';
import { reportFigure } from '../helpers/figures';

/**
 * What a connection's model is handed: the listed tools less their output schemas (names,
 * titles, descriptions, input schemas, annotations, `_meta`) plus the instructions; and their
 * output schemas apart. Every conversation pays for the default list, so it keeps about 1,000
 * bytes free for the optional arguments still to come; a toolset costs only those who ask for it.
 */
const CONNECTIONS = [
  { name: 'default', query: '', tools: DEFAULT_TOOLS, modelBudget: 20 * 1024, outputBudget: 10 * 1024 },
  {
    name: 'default + grading',
    query: '?toolsets=grading',
    // In the table's order, as every list is.
    tools: SPEC_TOOLS.filter((tool) => !(TOOLSET_TOOLS.import as readonly string[]).includes(tool)),
    modelBudget: 24 * 1024,
    outputBudget: 14 * 1024,
  },
  { name: 'all', query: '?toolsets=all', tools: SPEC_TOOLS, modelBudget: 26 * 1024, outputBudget: 15 * 1024 },
] as const;

/** The bytes of the part a model reads (and the instructions), and of the output schemas. */
function weigh(tools: readonly { outputSchema?: unknown }[], instructions: string) {
  const model = tools.map(({ outputSchema: _output, ...rest }) => rest);
  return {
    model: Buffer.byteLength(JSON.stringify(model)) + Buffer.byteLength(instructions),
    output: Buffer.byteLength(JSON.stringify(tools.map((tool) => tool.outputSchema))),
  };
}

/**
 * Every conversation that lists every tool pays for the whole list: its compact JSON stays
 * within this budget, with room left for the tools and fields still to come.
 */
const TOOLS_LIST_BUDGET_BYTES =
  /* through the assistant's everyday tools */ 26 * 1024 +
  /* more ways to ask: ordering, scale, fill_in_blanks, matching (about 4,090 used) */ 4096 +
  /* essays and grading: essay, grading_status, get_answers_to_grade, grade_answers */ 3072 +
  /* import_questions, and get_quiz_links' upload and export links */ 1536 +
  /* maths and code (math_dollars), images in questions and options */ 1536 +
  /* what time-up does, in require_all_answers and time_limit_minutes */ 128 +
  /* get_results' count of answers waiting for a grade (pending_grades) */ 64 +
  /* that a credential without quizzes:read renews a question's id when it sends a key */ 96 +
  /* import_questions' account of the texts it rewrote (changed) */ 96 +
  /* the grid type: its fields, answers and figures (about 790 used) */ 1024 +
  /* the calculated type: its fields and figures (the grid's and its together within 2,048) */ 1024;

/** The question types added together (ordering, matching, fill_in_blanks, scale) and their fields. */
const ADDED_TYPES = {
  names: ['ordering', 'matching', 'fill_in_blanks', 'scale'],
  fields: [
    // Question fields (inputs and the questions answered back).
    'items',
    'points_per_item',
    'pairs',
    'extra_matches',
    'points_per_pair',
    'blanks',
    'scale_min',
    'scale_max',
    'scale_labels',
    // get_results' per-type figures and answers.
    'positions',
    'distribution',
    'mean',
    'median',
    'net_promoter',
    'order',
  ],
};

/**
 * The tool list as it would be without those types: their fields dropped wherever a question,
 * an answer or a question's figures list them (a tool's own top-level arguments are kept, so
 * get_results' `order` of responses stays), their names dropped from enums and descriptions.
 */
function withoutTypes(list: unknown, added: typeof ADDED_TYPES): unknown {
  const fields = new Set(added.fields);
  const names = new Set(added.names);
  const mention = new RegExp(`;\\s*(${added.names.join('|')})( \\([^)]*\\))?`, 'g');
  const strip = (node: unknown, atToolRoot: boolean): unknown => {
    if (Array.isArray(node)) return node.map((item) => strip(item, false));
    if (typeof node === 'string') return node.replace(mention, '');
    if (node === null || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === 'properties' && value && typeof value === 'object' && !atToolRoot) {
        out[key] = Object.fromEntries(
          Object.entries(value)
            .filter(([name]) => !fields.has(name))
            .map(([name, property]) => [name, strip(property, false)]),
        );
      } else if (key === 'enum' && Array.isArray(value)) {
        out[key] = value.filter((item) => !names.has(item));
      } else {
        out[key] = strip(value, key === 'inputSchema' || key === 'outputSchema');
      }
    }
    return out;
  };
  return strip(list, false);
}

/** Each property of an input schema, by path, that carries no description. */
function undescribed(schema: Record<string, any>, at: string): string[] {
  const found: string[] = [];
  for (const [name, property] of Object.entries<Record<string, any>>(schema.properties ?? {})) {
    if (typeof property.description !== 'string' || property.description === '') found.push(`${at}.${name}`);
    // Fields another tool's listing describes (update_quiz's questions and settings are create_quiz's).
    if (/Fields as in create_quiz/.test(property.description ?? '')) continue;
    const items = property.items ?? property;
    if (items.properties) found.push(...undescribed(items, `${at}.${name}`));
  }
  return found;
}

describe('tools/list', () => {
  let app: TestApp;
  let apiKey: string;

  beforeAll(async () => {
    app = await startTestApp();
    apiKey = (await createTestUser(app)).apiKey;
  });
  afterAll(async () => {
    await app.close();
  });

  forEachEra((era) => {
    let client: AnyClient;
    beforeAll(async () => {
      client = await era.connect(app, apiKey);
    });
    afterAll(async () => {
      await client.close();
    });

    test('lists the default tools, in order, and each toolset adds its own', async () => {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(DEFAULT_TOOLS);
      for (const connection of CONNECTIONS) {
        const other = await era.connect(app, apiKey, { toolsets: connection.query.split('=')[1] ?? '' });
        try {
          expect((await other.listTools()).tools.map((tool) => tool.name)).toEqual(connection.tools);
        } finally {
          await other.close();
        }
      }
    });

    test.each(CONNECTIONS)(
      '$name: the model part and instructions, and the output schemas, are within budget',
      async ({ name, query, modelBudget, outputBudget }) => {
        const other = await era.connect(app, apiKey, { toolsets: query.split('=')[1] ?? '' });
        try {
          const { tools } = await other.listTools();
          const { model, output } = weigh(tools, (await other.instructions()) ?? '');
          reportFigure(
            `tools/list ${name} (${era.era}): ${model} bytes for the model with the instructions (budget ${modelBudget}), ${output} of output schemas (budget ${outputBudget})`,
          );
          expect(model).toBeLessThanOrEqual(modelBudget);
          expect(output).toBeLessThanOrEqual(outputBudget);
        } finally {
          await other.close();
        }
      },
    );

    test('the default list leaves about 1,000 bytes for the optional arguments under way', async () => {
      const { tools } = await client.listTools();
      const { model } = weigh(tools, (await client.instructions()) ?? '');
      expect(model).toBeLessThanOrEqual(CONNECTIONS[0].modelBudget - 1000);
    });

    test('the instructions name each toolset, its tools and the connector URL that adds it', async () => {
      const instructions = (await client.instructions()) ?? '';
      for (const [toolset, names] of Object.entries(TOOLSET_TOOLS)) {
        expect(instructions).toContain(`${app.baseUrl}/api/mcp?toolsets=${toolset}`);
        for (const tool of names) expect(instructions).toContain(tool);
      }
      // Every tool family is named: each tool of the service.
      expect(SPEC_TOOLS.filter((tool) => !instructions.includes(tool))).toEqual([
        'list_quizzes',
        'get_quiz_questions',
        'get_quiz_settings',
      ]);
    });

    test('every tool has a title, annotations, an input schema that refuses unknown fields, and an output schema', async () => {
      const { tools } = await client.listTools();
      for (const tool of tools) {
        expect(tool.title).toEqual(expect.any(String));
        expect(tool.annotations).toEqual({
          title: tool.title,
          readOnlyHint: expect.any(Boolean),
          destructiveHint: expect.any(Boolean),
          idempotentHint: expect.any(Boolean),
          openWorldHint: false,
        });
        expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
        expect(tool.outputSchema).toMatchObject({ type: 'object' });
      }
      const destructive = tools.filter((tool) => tool.annotations?.destructiveHint).map((tool) => tool.name);
      expect(destructive.sort()).toEqual(['delete_quiz', 'edit_questions', 'update_quiz']);
    });

    test('spec arguments are named exactly as in the spec', async () => {
      const { tools } = await client.listTools();
      const props = Object.fromEntries(
        tools.map((tool) => [tool.name, Object.keys(tool.inputSchema.properties ?? {})]),
      );
      expect(props.create_quiz).toEqual(expect.arrayContaining(['title', 'questions']));
      expect(props.update_quiz).toEqual(
        expect.arrayContaining(['quiz_id', 'questions', 'confirm_edit_published']),
      );
      expect(props.delete_quiz).toEqual(expect.arrayContaining(['quiz_id', 'confirm']));
      for (const name of ['get_quiz_questions', 'get_quiz_settings', 'publish_quiz', 'get_results']) {
        expect(props[name]).toContain('quiz_id');
      }
      expect(tools.find((tool) => tool.name === 'create_quiz')?.inputSchema.required).toEqual(['title']);
    });

    // A model that sets either of these must learn that time-up sends what is there and blanks
    // score 0, even with every answer required; the README's settings say the same.
    test('require_all_answers and time_limit_minutes say what happens at time-up', async () => {
      const { tools } = await client.listTools();
      const settings = tools.find((tool) => tool.name === 'create_quiz')?.inputSchema.properties?.settings as
        { properties: Record<string, { description?: string }> } | undefined;
      for (const name of ['require_all_answers', 'time_limit_minutes']) {
        const description = settings?.properties[name]?.description ?? '';
        expect(description).toMatch(/at time-up\b.*\bsubmitted\b/);
        expect(description).toMatch(/\bblanks score 0\b/);
      }
    });
  });

  test(`the tool list is at most ${TOOLS_LIST_BUDGET_BYTES} bytes of compact JSON`, async () => {
    const res = await postMcp(app, {
      credential: apiKey,
      query: '?toolsets=all',
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
    });
    const result = sseMessages(res.text)[0].result;
    const bytes = Buffer.byteLength(JSON.stringify(result));
    reportFigure(`tools/list: ${bytes} bytes of compact JSON (budget ${TOOLS_LIST_BUDGET_BYTES})`);
    expect(result.tools).toHaveLength(SPEC_TOOLS.length);
    expect(bytes).toBeLessThanOrEqual(TOOLS_LIST_BUDGET_BYTES);
    // zod's int() bounds every integer by the safe-integer range, which tells a client nothing.
    expect(JSON.stringify(result)).not.toContain(String(Number.MAX_SAFE_INTEGER));
  });

  test('the four types of "more ways to ask" take at most their 4,096 bytes of the list', async () => {
    const res = await postMcp(app, {
      credential: apiKey,
      query: '?toolsets=all',
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
    });
    const result = sseMessages(res.text)[0].result;
    const whole = Buffer.byteLength(JSON.stringify(result));
    const without = Buffer.byteLength(JSON.stringify(withoutTypes(result, ADDED_TYPES)));
    reportFigure(
      `tools/list: ordering, matching, fill_in_blanks and scale take ${whole - without} bytes (allowance 4096)`,
    );
    // The measure finds them: each of their fields is gone, and some bytes are counted.
    expect(JSON.stringify(withoutTypes(result, ADDED_TYPES))).not.toMatch(
      /"(pairs|scale_min|points_per_item)"/,
    );
    expect(whole - without).toBeGreaterThan(1000);
    expect(whole - without).toBeLessThanOrEqual(4096);
  });

  /** The bytes a type adds: the list less its fields and names, and less its words in shared descriptions. */
  function bytesOf(result: unknown, added: typeof ADDED_TYPES, sharedWords: readonly string[]) {
    const left = sharedWords.reduce(
      (text, words) => text.split(words).join(words.endsWith(':') ? ':' : ''),
      JSON.stringify(withoutTypes(result, added)),
    );
    return { bytes: Buffer.byteLength(JSON.stringify(result)) - Buffer.byteLength(left), left };
  }
  const GRID = {
    added: { names: ['grid'], fields: ['columns', 'checkboxes', 'right_columns', 'rows'] },
    // Its words in the descriptions of the fields it shares with ordering (items, points_per_item).
    shared: [', grid:', ', or the rows', ', or per row right (default 1)'],
  };
  const CALCULATED = {
    added: { names: ['calculated'], fields: ['formula', 'variables', 'tolerance_type'] },
    // Its name among the takers of points and tolerance, and its figures' branch in get_results.
    shared: [', calculated:'],
  };

  test('the grid type takes at most its 1,024 bytes of the list', async () => {
    const res = await postMcp(app, {
      credential: apiKey,
      query: '?toolsets=all',
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
    });
    const result = sseMessages(res.text)[0].result;
    const { bytes, left } = bytesOf(result, GRID.added, GRID.shared);
    reportFigure(`tools/list: grid takes ${bytes} bytes (allowance 1024)`);
    expect(left.match(/"(right_columns|checkboxes)"/g)).toBeNull();
    expect(bytes).toBeGreaterThan(300);
    expect(bytes).toBeLessThanOrEqual(1024);
  });

  test('the calculated type takes at most its 1,024 bytes, and the grid and it 2,048 together', async () => {
    const res = await postMcp(app, {
      credential: apiKey,
      query: '?toolsets=all',
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
    });
    const result = sseMessages(res.text)[0].result;
    const calculated = bytesOf(result, CALCULATED.added, CALCULATED.shared);
    const grid = bytesOf(result, GRID.added, GRID.shared);
    reportFigure(
      `tools/list: calculated takes ${calculated.bytes} bytes (allowance 1024); with the grid ${calculated.bytes + grid.bytes} (allowance 2048)`,
    );
    // Nothing of it is left to count elsewhere.
    expect(calculated.left.match(/"(formula|tolerance_type|variables)"|calculated/g)).toBeNull();
    expect(calculated.bytes).toBeGreaterThan(300);
    expect(calculated.bytes).toBeLessThanOrEqual(1024);
    expect(calculated.bytes + grid.bytes).toBeLessThanOrEqual(2048);
  });

  test('every input property a model reads has a description', async () => {
    const client = await connectClient(app, apiKey, { toolsets: 'all' });
    try {
      const { tools } = await client.listTools();
      expect(tools.flatMap((tool) => undescribed(tool.inputSchema, tool.name))).toEqual([]);
    } finally {
      await client.close();
    }
  });

  // The snapshot is the 2025 wire (v1's Client, as most deployed assistants read it); the
  // 2026-07-28 era must list exactly the same.
  test('matches the committed snapshot', async () => {
    const client = await connectClient(app, apiKey, { toolsets: 'all' });
    try {
      expect(await client.listTools()).toMatchSnapshot();
    } finally {
      await client.close();
    }
  });

  test('both eras list the same tools', async () => {
    const [modern, legacy] = await Promise.all(
      ERAS.map((era) => era.connect(app, apiKey, { toolsets: 'all' })),
    );
    try {
      expect((await modern!.listTools()).tools).toEqual((await legacy!.listTools()).tools);
    } finally {
      await Promise.all([modern!.close(), legacy!.close()]);
    }
  });
});

// Defaults are stated in words, never as a `default` keyword where a field left out means "keep":
// a client that fills in schema defaults would otherwise reset what the caller never meant to
// touch. And the words are true: what create_quiz's descriptions say a field left out becomes is
// what a new quiz gets.
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';

type Schema = Record<string, any>;

/** Each path in `schema` that carries a `default` keyword (property names are not keywords). */
export function defaultKeywords(schema: unknown, at = ''): string[] {
  if (Array.isArray(schema)) return schema.flatMap((item, index) => defaultKeywords(item, `${at}[${index}]`));
  if (!schema || typeof schema !== 'object') return [];
  return Object.entries(schema).flatMap(([key, value]) => {
    if (key === 'default') return [`${at}.default`];
    if (key === 'properties' && value && typeof value === 'object') {
      return Object.entries(value).flatMap(([name, field]) => defaultKeywords(field, `${at}.${name}`));
    }
    if (key === 'enum' || key === 'const' || key === 'examples') return [];
    return defaultKeywords(value, `${at}.${key}`);
  });
}

/** The value a description says a field takes when left out ("Default true.", "(default 1)"). */
function statedDefault(description: string | undefined): string | undefined {
  return /\bdefault:? "?([^".)\s]+)"?[.)]/i.exec(description ?? '')?.[1];
}

describe('defaults in words', () => {
  let app: TestApp;
  let client: AnyClient;
  let tools: Map<string, Schema>;

  beforeAll(async () => {
    app = await startTestApp();
    client = await connectClient(app, (await createTestUser(app, 'defaults')).apiKey);
    tools = new Map((await client.listTools()).tools.map((tool) => [tool.name, tool.inputSchema as Schema]));
  });
  afterAll(async () => {
    await client.close();
    await app.close();
  });

  test('the walk finds a default keyword at any depth, and not a field named "default"', () => {
    const schema = {
      type: 'object',
      properties: {
        default: { type: 'string' },
        a: { type: 'array', items: { properties: { b: { type: 'number', default: 0 } } } },
        c: { anyOf: [{ type: 'boolean', default: true }, { type: 'null' }] },
      },
    };
    expect(defaultKeywords(schema)).toEqual(['.a.items.b.default', '.c.anyOf[0].default']);
  });

  test('no schema whose omitted fields mean "keep" carries a default keyword', () => {
    for (const name of ['update_quiz', 'edit_questions']) {
      expect({ name, found: defaultKeywords(tools.get(name)) }).toEqual({ name, found: [] });
    }
    // Nor does any other tool but create_quiz: they state their defaults in words and apply them in code.
    const others = [...tools].filter(([name]) => name !== 'create_quiz');
    expect(others.flatMap(([name, schema]) => defaultKeywords(schema, name))).toEqual([]);
  });

  test("create_quiz's descriptions state every setting's default, and a new quiz has it", async () => {
    const settings: Record<string, Schema> = tools.get('create_quiz')!.properties.settings.properties;
    const quiz = payload(await callTool(client, 'create_quiz', { title: 'Left to its defaults' }));
    const record = payload(await callTool(client, 'get_quiz_settings', { quiz_id: quiz.quiz_id }));
    expect(Object.keys(settings).length).toBeGreaterThan(10);
    for (const [name, field] of Object.entries(settings)) {
      const stated = statedDefault(field.description);
      expect({ name, stated }).toEqual({ name, stated: String(record[name]) });
    }
  });

  test("create_quiz's question fields state their defaults, and a question left to them has them", async () => {
    const item: Schema = tools.get('create_quiz')!.properties.questions.items.properties;
    const stated = {
      points: statedDefault(item.points.description),
      correct_answer: statedDefault(item.correct_answer.description),
      tolerance: statedDefault(item.tolerance.description),
      score: statedDefault(item.options.items.properties.score.description),
    };
    expect(Object.values(stated)).not.toContain(undefined);
    const quiz = payload(
      await callTool(client, 'create_quiz', {
        title: 'Questions left to their defaults',
        questions: [
          { type: 'yes_no', text: 'Is water wet?' },
          { type: 'number', text: '7 x 8?', correct_number: 56 },
          { type: 'multiple_choice', text: 'Pick', options: [{ label: 'A', score: 1 }, { label: 'B' }] },
        ],
      }),
    );
    const { questions } = payload(await callTool(client, 'get_quiz_questions', { quiz_id: quiz.quiz_id }));
    expect({
      points: String(questions[0].points),
      correct_answer: questions[0].correct_answer,
      tolerance: String(questions[1].tolerance),
      score: String(questions[2].options[1].score),
    }).toEqual(stated);
  });
});

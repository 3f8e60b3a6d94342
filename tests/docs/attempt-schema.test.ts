// /openapi.json's AttemptStarted describes what POST /api/quizzes/:slug/attempts really answers:
// every field of every question, for every type, the ids of ordering's items, matching's prompts
// and matches and a blank's options included, is named in the schema with the type it has.
import request from 'supertest';
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  patternProperties?: Record<string, Schema>;
  items?: Schema;
  required?: string[];
  description?: string;
};

/** Where `value` strays from `schema`: a field it does not name, one it requires and is missing, or a value of another type. */
function strays(value: unknown, schema: Schema, path: string): string[] {
  const types = schema.type === undefined ? [] : [schema.type].flat();
  const kind =
    value === null
      ? 'null'
      : Array.isArray(value)
        ? 'array'
        : Number.isInteger(value)
          ? 'integer'
          : typeof value;
  if (types.length > 0 && !types.includes(kind) && !(kind === 'integer' && types.includes('number'))) {
    return [`${path} is ${kind}, described as ${types.join(' or ')}`];
  }
  if (Array.isArray(value))
    return value.flatMap((entry, i) => (schema.items ? strays(entry, schema.items, `${path}[${i}]`) : []));
  if (kind !== 'object') return [];
  const missing = (schema.required ?? [])
    .filter((key) => !(key in (value as object)))
    .map((key) => `${path}.${key} is required and missing`);
  return missing.concat(
    Object.entries(value as Record<string, unknown>).flatMap(([key, entry]) => {
      const named =
        schema.properties?.[key] ??
        Object.entries(schema.patternProperties ?? {}).find(([pattern]) =>
          new RegExp(pattern).test(key),
        )?.[1];
      return named ? strays(entry, named, `${path}.${key}`) : [`${path}.${key} is not in the schema`];
    }),
  );
}

describe('the attempt schema in /openapi.json', () => {
  let app: TestApp;
  let client: AnyClient;
  beforeAll(async () => {
    app = await startTestApp();
    client = await connectClient(app, (await createTestUser(app, 'attempt-schema')).apiKey);
  });
  afterAll(async () => {
    await client?.close();
    await app?.close();
  });

  test('names every field the JSON attempt answers for every type, with its type', async () => {
    const quiz = payload(
      await callTool(client, 'create_quiz', {
        title: 'Every part by id',
        questions: [
          {
            type: 'multiple_choice',
            text: 'Pick one',
            options: [
              { label: 'A', score: 1 },
              { label: 'B', score: 0 },
            ],
          },
          {
            type: 'ordering',
            text: 'Order them',
            items: [{ label: 'One' }, { label: 'Two' }, { label: 'Three' }],
          },
          {
            type: 'matching',
            text: 'Match them',
            pairs: [
              { prompt: 'Paris', match: 'France' },
              { prompt: 'Rome', match: 'Italy' },
            ],
            extra_matches: [{ label: 'Spain' }],
          },
          {
            type: 'fill_in_blanks',
            text: 'Peru: [[1]]; tower: [[2]]',
            blanks: [{ accepted_answers: ['Lima'] }, { options: ['1789', '1889'], correct_option: 1 }],
          },
          { type: 'scale', text: 'How likely?', scale_min: 0, scale_max: 10, scale_labels: ['Not', 'Very'] },
          { type: 'essay', text: 'Why?', min_words: 2, max_words: 50 },
          {
            type: 'grid',
            text: 'Each flag',
            items: [{ label: 'Italy' }, { label: 'Japan' }],
            columns: ['Red', 'White', 'Green'],
            checkboxes: true,
          },
          {
            type: 'calculated',
            text: 'Speed over {d} in {t} h?',
            formula: 'd / t',
            variables: [
              { name: 'd', min: 100, max: 900, unit: 'km' },
              { name: 't', min: 2, max: 8, step: 0.5 },
            ],
          },
        ],
        settings: { collect_name: false },
      }),
    );
    await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id });
    const attempt = await request(app.app).post(`/api/quizzes/${quiz.slug}/attempts`).send({}).expect(201);
    const byType = Object.fromEntries(attempt.body.questions.map((q: { type: string }) => [q.type, q]));
    // The parts named by id are really there, so the walk below covers them.
    expect(byType.ordering.items).toHaveLength(3);
    expect(byType.matching.prompts).toHaveLength(2);
    expect(byType.matching.matches).toHaveLength(3);
    expect(byType.fill_in_blanks.blank_2_options).toHaveLength(2);
    expect(byType.grid.items).toEqual([{ label: 'Italy' }, { label: 'Japan' }]);
    // A calculated question's attempt shows its own values in the text, which the schema says.
    expect(byType.calculated.text).toMatch(/^Speed over \d+ km in \d+(\.[05])? h\?$/);

    const doc = (await request(app.app).get('/openapi.json').expect(200)).body;
    const schema: Schema = doc.components.schemas.AttemptStarted;
    expect(strays(attempt.body, schema, 'attempt')).toEqual([]);
    expect(schema.properties?.questions?.items?.properties?.text?.description).toMatch(
      /calculated question's \{name\}s are this attempt's own values/,
    );
    // The walk does catch a field the schema leaves out: this test can fail.
    expect(strays({ questions: [{ ...byType.matching, pairs: [] }] }, schema, 'attempt')).toEqual([
      'attempt.questions[0].pairs is not in the schema',
    ]);
    expect(strays({ questions: [{ items: [{ item_id: 1, label: 'One' }] }] }, schema, 'attempt')).toEqual([
      'attempt.questions[0].items[0].item_id is integer, described as string',
    ]);
    expect(strays({ questions: [{ options: [{ label: 'A' }] }] }, schema, 'attempt')).toEqual([
      'attempt.questions[0].options[0].option_index is required and missing',
    ]);
  });
});

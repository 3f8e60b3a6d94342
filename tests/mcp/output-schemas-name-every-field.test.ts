// Every field an answer carries is named by the output schema tools/list publishes for it, at
// every depth: real answers of every tool, in both eras, are walked against the listed schema's
// properties. A field added to an answer without its schema fails here.
import { submitResponse } from '../../src/domain/taking/submit-response';
import { QUESTION_FIELDS_NAMED_IN_EVERY_LISTING } from '../../src/mcp/tools/common';
import { callTool, forEachEra, payload, type AnyClient } from '../helpers/mcp-clients';
import { createTestUser, sampleQuestions, startTestApp, type TestApp } from '../helpers/test-app';

type Schema = Record<string, any>;

/** The schema with each `$ref` to its `$defs` replaced by what it refers to. */
export function inlined(schema: Schema, root: Schema = schema): Schema {
  if (Array.isArray(schema)) return schema.map((item) => inlined(item, root));
  if (typeof schema !== 'object' || schema === null) return schema;
  const ref = /^#\/\$defs\/(.+)$/.exec(String(schema.$ref ?? ''))?.[1];
  if (ref !== undefined) return inlined(root.$defs[ref], root);
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, inlined(value, root)]));
}

/** The properties a schema names for an object, through the nullable and union forms. */
function propertiesOf(schema: Schema): Record<string, Schema> | undefined {
  if (schema.properties) return schema.properties;
  const branches: Schema[] | undefined = schema.anyOf ?? schema.oneOf;
  if (!branches) return undefined;
  const merged = Object.assign({}, ...branches.map((branch) => propertiesOf(branch) ?? {}));
  return Object.keys(merged).length > 0 ? merged : undefined;
}

function itemsOf(schema: Schema): Schema | undefined {
  return schema.items ?? (schema.anyOf ?? []).find((branch: Schema) => branch.items)?.items;
}

/** Each path of `value` its schema does not name (`.a.b[].c`). */
export function unnamed(value: unknown, schema: Schema | undefined, at = ''): string[] {
  if (!schema || value === null || typeof value !== 'object') return [];
  if (Array.isArray(value)) return value.flatMap((item) => unnamed(item, itemsOf(schema), `${at}[]`));
  const properties = propertiesOf(schema);
  if (!properties) return [`${at} (an object its schema names no field of)`];
  return Object.entries(value).flatMap(([key, child]) =>
    key in properties ? unnamed(child, properties[key], `${at}.${key}`) : [`${at}.${key}`],
  );
}

describe('listed output schemas name every field', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  test('the walk finds a field its schema does not name, at any depth', () => {
    const schema = {
      type: 'object',
      properties: {
        a: { type: ['array', 'null'], items: { type: 'object', properties: { b: {} } } },
        c: { anyOf: [{ type: 'object', properties: { d: {} } }, { type: 'null' }] },
      },
    };
    expect(unnamed({ a: [{ b: 1, x: 2 }], c: { d: 1, y: 2 }, z: 3 }, schema)).toEqual([
      '.a[].x',
      '.c.y',
      '.z',
    ]);
    expect(unnamed({ a: null, c: null }, schema)).toEqual([]);
  });

  forEachEra((era) => {
    let client: AnyClient;
    beforeAll(async () => {
      client = await era.connect(app, (await createTestUser(app, `named-${era.era}`)).apiKey, {
        toolsets: 'all',
      });
    });
    afterAll(() => client.close());

    test('every field of every answer over a quiz life cycle, every tool', async () => {
      const { tools } = await client.listTools();
      const schemas = new Map(tools.map((tool) => [tool.name, inlined(tool.outputSchema as Schema)]));
      const found = new Map<string, Set<string>>(tools.map((tool) => [tool.name, new Set()]));
      // A quiz just written answers its questions as get_quiz_questions does, whose listing names
      // the fields of each type: create_quiz's and update_quiz's name those every type has.
      const readQuestion = schemas.get('get_quiz_questions')!.properties.questions.items;
      const namedByReader = (name: string, path: string) => {
        const field = /^\.questions\[\]\.([a-z_]+)/.exec(path)?.[1];
        return (
          (name === 'create_quiz' || name === 'update_quiz') &&
          field !== undefined &&
          !(QUESTION_FIELDS_NAMED_IN_EVERY_LISTING as readonly string[]).includes(field) &&
          field in readQuestion.properties
        );
      };
      const call = async (name: string, args: Record<string, unknown>) => {
        const answer = payload(await callTool(client, name, args));
        for (const path of unnamed(answer, schemas.get(name)))
          if (!namedByReader(name, path)) found.get(name)!.add(path);
        return answer;
      };

      const quiz = await call('create_quiz', {
        title: `Named fields ${era.era}`,
        description: 'Every type.',
        questions: [
          ...sampleQuestions().map((question) => ({ ...question, explanation: 'Because.' })),
          { type: 'short_text', text: 'Capital of France?', accepted_answers: ['Paris'] },
          { type: 'number', text: '7 x 8?', correct_number: 56 },
          {
            type: 'multiple_select',
            text: 'Primes?',
            options: [
              { label: '2', score: 1 },
              { label: '4', score: -1 },
            ],
          },
        ],
        settings: { pass_mark_percent: 50, collect_email: true },
      });
      await call('update_quiz', {
        quiz_id: quiz.quiz_id,
        title: `Named fields ${era.era}!`,
        remark_past_responses: true,
        questions: quiz.questions,
      });
      await call('edit_questions', {
        quiz_id: quiz.quiz_id,
        operations: [
          { op: 'update', question_id: quiz.questions[0].question_id, text: 'Is the sky blue today?' },
          { op: 'update', question_id: quiz.questions[3].question_id, correct_number: 57 },
          { op: 'move', question_id: quiz.questions[1].question_id, position: 2 },
        ],
      });
      await call('get_quiz_settings', { quiz_id: quiz.quiz_id });
      await call('publish_quiz', { quiz_id: quiz.quiz_id });
      await call('publish_quiz', { quiz_id: quiz.quiz_id });
      const { questions } = await call('get_quiz_questions', { quiz_id: quiz.quiz_id });
      await submitResponse(app.deps, quiz.slug, {
        respondent: { name: 'Resp', email: 'resp@example.com' },
        answers: [
          { question_id: questions[0].question_id, answer: 'yes' },
          { question_id: questions[1].question_id, option_index: 0 },
          { question_id: questions[2].question_id, text: 'Paris' },
          { question_id: questions[3].question_id, number: 56 },
          { question_id: questions[4].question_id, choices: [0] },
        ],
      });
      await call('get_results', { quiz_id: quiz.quiz_id });
      await call('get_results', { quiz_id: quiz.quiz_id, score_below: 100, order: 'score_asc' });
      await call('list_quizzes', {});
      await call('get_quiz_links', { quiz_id: quiz.quiz_id });
      await call('close_quiz', { quiz_id: quiz.quiz_id });
      await call('close_quiz', { quiz_id: quiz.quiz_id });
      await call('reopen_quiz', { quiz_id: quiz.quiz_id, until: '2099-01-01T09:00' });
      await call('close_quiz', { quiz_id: quiz.quiz_id, at: '2099-02-01T09:00', timezone: 'Europe/Paris' });
      const copy = await call('duplicate_quiz', { quiz_id: quiz.quiz_id, language: 'es' });
      await call('get_quiz_links', { quiz_id: copy.quiz_id });
      // Times without an offset: the answers add how they were read.
      await call('update_quiz', {
        quiz_id: copy.quiz_id,
        settings: { opens_at: '2099-01-01T09:00', closes_at: '2099-01-02T09:00' },
        timezone: 'Asia/Tokyo',
      });
      const timed = await call('create_quiz', {
        title: 'Timed',
        settings: { closes_at: '2099-01-02T09:00' },
      });
      await call('delete_quiz', { quiz_id: timed.quiz_id, confirm: true });
      await call('delete_quiz', { quiz_id: copy.quiz_id, confirm: true });

      const unnamedNow = Object.fromEntries(
        [...found].filter(([, paths]) => paths.size > 0).map(([name, paths]) => [name, [...paths].sort()]),
      );
      expect(unnamedNow).toEqual({});
    });
  });
});

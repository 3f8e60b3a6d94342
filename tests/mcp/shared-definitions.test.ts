// Output schemas write a subschema that repeats once, under $defs: shorter, and the same schema
// to a validator.
import Ajv2020 from 'ajv/dist/2020';
import { publishedOutputSchema, sharedDefinitions } from '../../src/mcp/portable-json-schema';

const nullable = (type: string) => ({ anyOf: [{ type }, { type: 'null' }] });

describe('sharedDefinitions', () => {
  const schema = {
    type: 'object',
    properties: {
      a: nullable('number'),
      b: nullable('number'),
      c: nullable('number'),
      d: { type: 'string' },
      rows: {
        type: 'array',
        items: { type: 'object', properties: { x: nullable('number'), y: nullable('string') } },
      },
      e: nullable('string'),
      f: nullable('string'),
      once: nullable('boolean'),
    },
  };

  test('a repeated subschema is written once and referred to; one written once stays inline', () => {
    const shared = sharedDefinitions(schema);
    expect(shared.$defs).toEqual({ n: nullable('number'), s: nullable('string') });
    const properties = shared.properties as Record<string, unknown>;
    expect(properties.a).toEqual({ $ref: '#/$defs/n' });
    expect(properties.d).toEqual({ type: 'string' });
    expect(properties.once).toEqual(nullable('boolean'));
    expect(JSON.stringify(shared).length).toBeLessThan(JSON.stringify(schema).length);
  });

  test('a validator reads the shared schema as the original', () => {
    const ajv = new Ajv2020({ strict: false });
    const original = ajv.compile(schema);
    const shared = ajv.compile(sharedDefinitions(schema));
    const instances = [
      { a: null, b: 1, c: 2.5, rows: [{ x: null, y: 'z' }], e: null, once: null },
      { a: 'one' },
      { rows: [{ y: 3 }] },
      { once: 'no' },
    ];
    expect(instances.map((instance) => shared(instance))).toEqual(
      instances.map((instance) => original(instance)),
    );
    expect(instances.map((instance) => shared(instance))).toEqual([true, false, false, false]);
  });

  test('nothing repeated: the schema as it was, with no $defs', () => {
    const single = { type: 'object', properties: { a: nullable('number'), b: { type: 'string' } } };
    expect(sharedDefinitions(single)).toEqual(single);
  });

  test('a published output schema has one type per schema and nothing that constrains nothing', () => {
    const published = publishedOutputSchema({
      type: 'object',
      properties: { list: { type: 'array', items: {} }, name: nullable('string') },
      required: ['list', 'name'],
      additionalProperties: false,
    });
    expect(published).toEqual({
      type: 'object',
      properties: { list: { type: 'array' }, name: nullable('string') },
    });
  });
});

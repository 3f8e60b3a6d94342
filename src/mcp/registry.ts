import {
  fromJsonSchema,
  isInputRequiredResult,
  UrlElicitationRequiredError,
  type CallToolResult,
  type InputRequiredResult,
  type JsonSchemaType,
  type JsonSchemaValidator,
  type jsonSchemaValidator,
  type StandardSchemaWithJSON,
  type Tool,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { invalidInput, isDomainError } from '../domain/errors';
import { toFieldIssues } from '../domain/field-issues';
import { unstorableField } from '../domain/text-integrity';
import { inputWording } from '../domain/quiz-input';
import { toolErrorText } from '../http/domain-errors';
import { portableJsonSchema, publishedOutputSchema } from './portable-json-schema';
import { richTextMeta } from './apps/rich-text-meta';
import type { ToolContext, ToolDefinition } from './tool';
import type { ToolsetName } from './toolsets';
import { answerFor, mayRead } from './write-only-answer';

/**
 * The tool table, prepared once at start-up. Each tool's JSON Schemas and SDK wrappers are
 * computed here, and `tools/call` validates arguments with the tool's zod schema, field by
 * field, before its handler runs; only domain errors reach the caller in their own words,
 * anything else becomes a generic message with a request id.
 */
export interface ToolEntry {
  readonly definition: ToolDefinition;
  /** What `tools/list` shows of it. */
  readonly listing: Tool;
  /** The schemas handed to the SDK's McpServer (see `sdkSchema`). */
  readonly sdkSchemas: { input: StandardSchemaWithJSON; output: StandardSchemaWithJSON };
}

export interface ToolRegistry {
  /** Every tool, in the order `tools/list` shows them. */
  readonly entries: readonly ToolEntry[];
  /** The tools a connection lists: the default list and those of its toolsets, in order. */
  listedWith(toolsets: ReadonlySet<ToolsetName>): readonly ToolEntry[];
  /** The one lookup by name, done by the endpoint's edge. */
  find(name: string): ToolEntry | undefined;
  /** What `tools/list` shows, in order. */
  readonly listing: readonly Tool[];
  /** A sentence that lists the tools, for errors that name an unknown one. */
  readonly names: string;
  call(tool: ToolEntry, args: unknown, context: ToolContext): Promise<CallToolResult | InputRequiredResult>;
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Tool['inputSchema'] {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-7',
    io,
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  return portableJsonSchema(rest) as Tool['inputSchema'];
}

/**
 * Validation is the registry's, once per call, so that a bad argument is explained field by
 * field in our words ("nothing was changed", the limit, the value received). The SDK is given
 * the JSON Schema to advertise through its own `fromJsonSchema`, with a validator that leaves
 * the arguments to the registry instead of checking them a second time.
 */
const LEFT_TO_THE_REGISTRY: jsonSchemaValidator = {
  getValidator<T>(): JsonSchemaValidator<T> {
    return (input) => ({ valid: true, data: input as T, errorMessage: undefined });
  },
};

function sdkSchema(json: Tool['inputSchema']): StandardSchemaWithJSON {
  return fromJsonSchema(json as JsonSchemaType, LEFT_TO_THE_REGISTRY);
}

function describe(tool: ToolDefinition): string {
  if (!tool.deprecation) return tool.description;
  return (
    `DEPRECATED: use ${tool.deprecation.replacement} instead; this tool stops working on ${tool.deprecation.sunset}. ` +
    tool.description
  );
}

export function toolError(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * What another tool's listing already says of nested fields: their meaning and their bounds.
 * The calls are checked against them all the same, and an error names the bound.
 */
const DESCRIBED_ELSEWHERE = new Set([
  'description',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
  'default',
  'required',
  'additionalProperties',
]);

/** Every property name at any depth of a schema: the fields its listing describes. */
function fieldNames(schema: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) schema.forEach((item) => fieldNames(item, into));
  else if (schema && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'properties' && value && typeof value === 'object') {
        for (const [name, field] of Object.entries(value)) {
          into.add(name);
          fieldNames(field, into);
        }
      } else fieldNames(value, into);
    }
  }
  return into;
}

/**
 * The schema with only what the other tool's listing does not say: its own description, its
 * shape, and the nested fields of its own (edit_questions' `op`, `position`), without their
 * meaning or bounds. The fields the other tool describes are left for the model to read there.
 */
function sharedShape(schema: unknown, described: ReadonlySet<string>, top = true): unknown {
  if (Array.isArray(schema)) return schema.map((item) => sharedShape(item, described, false));
  if (!schema || typeof schema !== 'object') return schema;
  const entries = Object.entries(schema)
    .filter(([key]) => top || !DESCRIBED_ELSEWHERE.has(key))
    .map(([key, value]): [string, unknown] => {
      if (key === 'enum') return [key, value];
      // Under `properties`, keys are field names, not keywords.
      if (key === 'properties' && value && typeof value === 'object') {
        const own = Object.entries(value).filter(([name]) => !described.has(name));
        return [
          key,
          Object.fromEntries(own.map(([name, field]) => [name, sharedShape(field, described, false)])),
        ];
      }
      return [key, sharedShape(value, described, false)];
    })
    .filter(([key, value]) => key !== 'properties' || Object.keys(value as object).length > 0);
  const node = Object.fromEntries(entries);
  // The fields left out are still taken.
  const leftOut = Object.keys((schema as { properties?: object }).properties ?? {}).some((name) =>
    described.has(name),
  );
  return leftOut ? { ...node, additionalProperties: true } : node;
}

/**
 * An object whose fields the listing leaves to words (another tool's, or the field's own) is
 * said to take any field: clients that turn a schema into a validator of their own (LangChain,
 * mcp-use) otherwise read `{"type": "object"}` as an object with no field at all.
 */
function openWhereUnnamed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(openWhereUnnamed);
  if (!schema || typeof schema !== 'object') return schema;
  const node = Object.fromEntries(
    Object.entries(schema).map(([key, value]) => {
      if (key === 'enum') return [key, value];
      if (key === 'properties' && value && typeof value === 'object') {
        const fields = Object.entries(value).map(([name, field]) => [name, openWhereUnnamed(field)]);
        return [key, Object.fromEntries(fields)];
      }
      return [key, openWhereUnnamed(value)];
    }),
  ) as Record<string, unknown>;
  const unnamed = node.type === 'object' && !('properties' in node) && !('additionalProperties' in node);
  return unnamed ? { ...node, additionalProperties: true } : node;
}

function listedInput(
  definition: ToolDefinition,
  definitions: readonly ToolDefinition[],
): Tool['inputSchema'] {
  const schema = openWhereUnnamed(jsonSchema(definition.input, 'input')) as Tool['inputSchema'];
  if (!definition.describedIn) return schema;
  const { tool, properties: shared } = definition.describedIn;
  const other = definitions.find((each) => each.name === tool);
  if (!other) throw new Error(`${definition.name} refers to ${tool}, which is not in the tool table`);
  const described = fieldNames(jsonSchema(other.input, 'input'));
  const properties = { ...schema.properties };
  for (const name of shared) {
    properties[name] = openWhereUnnamed(
      sharedShape(properties[name], described),
    ) as (typeof properties)[string];
  }
  return { ...schema, properties };
}

function register(definition: ToolDefinition, definitions: readonly ToolDefinition[]): ToolEntry {
  const listing: Tool = {
    name: definition.name,
    title: definition.title,
    description: describe(definition),
    inputSchema: listedInput(definition, definitions),
    outputSchema: publishedOutputSchema(jsonSchema(definition.listedOutput ?? definition.output, 'output')),
    annotations: { title: definition.title, ...definition.annotations },
  };
  const sdkSchemas = {
    input: sdkSchema(listing.inputSchema),
    output: sdkSchema(listing.outputSchema as Tool['inputSchema']),
  };
  return { definition, listing, sdkSchemas };
}

export function createToolRegistry(definitions: readonly ToolDefinition[]): ToolRegistry {
  const entries = definitions.map((definition) => register(definition, definitions));
  const byName = new Map(entries.map((entry) => [entry.definition.name, entry]));
  if (byName.size !== entries.length) throw new Error('two tools share a name');

  return {
    entries,
    listedWith: (toolsets) =>
      entries.filter(({ definition }) => !definition.toolset || toolsets.has(definition.toolset)),
    find: (name) => byName.get(name),
    listing: entries.map((entry) => entry.listing),
    names: definitions.map((tool) => tool.name).join(', '),
    async call({ definition }, args, context) {
      const name = definition.name;
      const input = args ?? {};
      const badText = unstorableField(input);
      if (badText) return toolError(toolErrorText(invalidInput([badText]), name));
      const prepared = definition.prepare(input);
      if (!prepared.ok) {
        const issues = toFieldIssues(prepared.error, input, inputWording(definition.input));
        return toolError(toolErrorText(invalidInput(issues), name));
      }
      try {
        const answer = await prepared.run(context);
        // A question for the person in front of the client goes to the SDK as it is (approvals/).
        if (isInputRequiredResult(answer)) return answer;
        // A credential that may not read quizzes sees ids and status, never a key (write-only-answer.ts).
        const result = answerFor(context.principal, answer);
        const links = (definition.resourceLinks?.(result) ?? []).map((link) => ({
          type: 'resource_link' as const,
          ...link,
        }));
        // The view draws text only: its formulas come typeset beside the answer.
        const meta = definition.view ? await richTextMeta(result, context) : undefined;
        return {
          content: [{ type: 'text', text: JSON.stringify(result) }, ...links],
          structuredContent: result,
          ...(meta ? { _meta: meta } : {}),
        };
      } catch (error) {
        // The 2025 era's "open this page" (-32042) is a protocol error the SDK sends as it is.
        if (error instanceof UrlElicitationRequiredError) throw error;
        if (isDomainError(error)) {
          const reader = error.forReaders && mayRead(context.principal);
          return toolError(toolErrorText(error, name) + (reader ? ` ${error.forReaders}` : ''));
        }
        return toolError(context.onInternalError(error));
      }
    },
  };
}

import {
  fromJsonSchema,
  type CallToolResult,
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
import { UNKNOWN_ARGUMENT } from '../domain/quiz-input';
import { toolErrorText } from '../http/domain-errors';
import { portableJsonSchema } from './portable-json-schema';
import type { ToolContext, ToolDefinition } from './tool';

/**
 * The tool table, prepared once at start-up. Each tool's JSON Schemas are computed here, and
 * `tools/call` validates arguments with the tool's zod schema, field by field, before its
 * handler runs; only domain errors reach the caller in their own words, anything else becomes
 * a generic message with a request id.
 */
export interface ToolRegistry {
  readonly tools: ReadonlyMap<string, ToolDefinition>;
  /** What `tools/list` shows, in order. */
  readonly listing: readonly Tool[];
  /** The schemas handed to the SDK's McpServer for each tool (see `sdkSchema`). */
  readonly sdkSchemas: ReadonlyMap<string, { input: StandardSchemaWithJSON; output: StandardSchemaWithJSON }>;
  /** A sentence that lists the tools, for errors that name an unknown one. */
  readonly names: string;
  call(name: string, args: unknown, context: ToolContext): Promise<CallToolResult>;
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

export function createToolRegistry(definitions: readonly ToolDefinition[]): ToolRegistry {
  const tools = new Map(definitions.map((tool) => [tool.name, tool]));
  if (tools.size !== definitions.length) throw new Error('two tools share a name');
  const listing = definitions.map((tool): Tool => ({
    name: tool.name,
    title: tool.title,
    description: describe(tool),
    inputSchema: jsonSchema(tool.input, 'input'),
    outputSchema: jsonSchema(tool.output, 'output'),
    annotations: { title: tool.title, ...tool.annotations },
  }));
  const sdkSchemas = new Map(
    listing.map((tool) => [
      tool.name,
      { input: sdkSchema(tool.inputSchema), output: sdkSchema(tool.outputSchema as Tool['inputSchema']) },
    ]),
  );

  return {
    tools,
    listing,
    sdkSchemas,
    names: definitions.map((tool) => tool.name).join(', '),
    async call(name, args, context) {
      const tool = tools.get(name);
      if (!tool) throw new Error(`no tool named ${name}: the endpoint checks names before calling`);
      const input = args ?? {};
      const badText = unstorableField(input);
      if (badText) return toolError(toolErrorText(invalidInput([badText]), name));
      const parsed = tool.input.safeParse(input);
      if (!parsed.success) {
        const issues = toFieldIssues(parsed.error, input, { unknownField: UNKNOWN_ARGUMENT });
        return toolError(toolErrorText(invalidInput(issues), name));
      }
      try {
        const result = (await tool.run(parsed.data, context)) as Record<string, unknown>;
        return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
      } catch (error) {
        if (isDomainError(error)) return toolError(toolErrorText(error, name));
        return toolError(context.onInternalError(error));
      }
    },
  };
}

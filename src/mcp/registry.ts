import { ErrorCode, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { isDomainError } from '../domain/errors';
import { toFieldIssues } from '../domain/quiz-input';
import type { ToolContext, ToolDefinition } from './tool';

/**
 * The tool table, prepared once at start-up: JSON Schemas are computed here, not per
 * request, and `tools/call` dispatches through a map. Arguments are validated with the
 * tool's zod schema, field by field, before its handler runs; only domain errors reach
 * the caller in their own words, anything else becomes a generic message with a request id.
 */
export interface ToolRegistry {
  readonly tools: ReadonlyMap<string, ToolDefinition>;
  readonly listing: { tools: Tool[] };
  call(
    name: string,
    args: unknown,
    context: ToolContext,
    onInternalError: (error: unknown) => string,
  ): Promise<CallToolResult>;
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Tool['inputSchema'] {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-7',
    io,
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  return rest as Tool['inputSchema'];
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
  const listing = {
    tools: definitions.map((tool): Tool => ({
      name: tool.name,
      title: tool.title,
      description: describe(tool),
      inputSchema: jsonSchema(tool.input, 'input'),
      outputSchema: jsonSchema(tool.output, 'output'),
      annotations: { title: tool.title, ...tool.annotations },
    })),
  };
  const names = definitions.map((tool) => tool.name).join(', ');

  return {
    tools,
    listing,
    async call(name, args, context, onInternalError) {
      const tool = tools.get(name);
      if (!tool) {
        throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${name}". The tools are: ${names}.`);
      }
      const input = args ?? {};
      const parsed = tool.input.safeParse(input);
      if (!parsed.success) {
        const lines = toFieldIssues(parsed.error, input).map((issue) => `- ${issue.field}: ${issue.message}`);
        return toolError(
          `Invalid arguments for ${name}; nothing was changed. Fix these and call it again:\n${lines.join('\n')}`,
        );
      }
      try {
        const result = (await tool.run(parsed.data, context)) as Record<string, unknown>;
        return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
      } catch (error) {
        if (isDomainError(error)) return toolError(error.message);
        return toolError(onInternalError(error));
      }
    },
  };
}

import type { ToolAnnotations } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import type { DomainDeps } from '../domain/deps';
import type { Principal, Scope } from '../identity/principal';

export interface ToolContext {
  deps: DomainDeps;
  principal: Principal;
  /** The caller's text for a failure that is not a domain error (it logs the details). */
  onInternalError(error: unknown): string;
}

export interface Deprecation {
  /** When the tool was deprecated, ISO-8601 date (`YYYY-MM-DD`). */
  since: string;
  /** Removal date, ISO-8601 (`YYYY-MM-DD`); at least 90 days after the announcement (CHANGELOG.md states the policy). */
  sunset: string;
  /** The tool that replaces this one. */
  replacement: string;
}

/**
 * One MCP tool: its public contract (name, title, description, schemas, annotations, the
 * scope it needs) next to the function that serves it. Handlers receive arguments already
 * validated by `input`, and return a value matching `output`.
 */
export interface ToolDefinition<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  annotations: Required<
    Pick<ToolAnnotations, 'readOnlyHint' | 'destructiveHint' | 'idempotentHint' | 'openWorldHint'>
  >;
  scope: Scope;
  deprecation?: Deprecation;
  run(args: z.output<I>, context: ToolContext): Promise<z.input<O>>;
}

export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(
  tool: ToolDefinition<I, O>,
): ToolDefinition<I, O> {
  return tool;
}

export const READ_ONLY = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;

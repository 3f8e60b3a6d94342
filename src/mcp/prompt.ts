import type { GetPromptResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { DomainDeps } from '../domain/deps';
import type { Principal, Scope } from '../identity/principal';

/** What a prompt and its completions are given: the caller, and the domain to ask. */
export interface PromptContext {
  deps: DomainDeps;
  principal: Principal;
}

/** Suggestions for an argument's value from what the caller has typed so far. */
export type Completer = (value: string, context: PromptContext) => Promise<string[]>;

export interface PromptArgumentSpec {
  /** One line: what to pass. */
  description: string;
  required?: boolean;
  complete?: Completer;
}

/**
 * What a prompt's file writes: its name, title and description, its arguments (MCP prompt
 * arguments are strings) with their completions, the scope it reads with when it reads the
 * caller's quizzes, and `get`, which builds the messages.
 */
export interface PromptSpec {
  name: string;
  title: string;
  description: string;
  arguments: Record<string, PromptArgumentSpec>;
  scope?: Scope;
  get(args: Record<string, string | undefined>, context: PromptContext): Promise<GetPromptResult>;
}

/** A prompt as the server factory registers it: the spec, and its arguments' schema built once. */
export interface PromptDefinition extends PromptSpec {
  argsSchema: z.ZodObject;
}

/** Longest argument a prompt takes: pasted material fits, a runaway paste is refused. */
const MAX_ARGUMENT_LENGTH = 100_000;

export function definePrompt(spec: PromptSpec): PromptDefinition {
  const shape = Object.fromEntries(
    Object.entries(spec.arguments).map(([name, argument]) => {
      const value = z.string().max(MAX_ARGUMENT_LENGTH).describe(argument.description);
      return [name, argument.required ? value.min(1) : value.optional()];
    }),
  );
  return { ...spec, argsSchema: z.object(shape) };
}

/** A prompt's one user message. */
export function userMessage(text: string): GetPromptResult['messages'][number] {
  return { role: 'user', content: { type: 'text', text } };
}

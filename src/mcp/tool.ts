import type { InputRequiredResult, ToolAnnotations } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import type { DomainDeps } from '../domain/deps';
import type { Principal, Scope } from '../identity/principal';
import type { PersonContext } from './approvals/person';
import type { ToolsetName } from './toolsets';

export interface ToolContext {
  deps: DomainDeps;
  principal: Principal;
  /** The caller's text for a failure that is not a domain error (it logs the details). */
  onInternalError(error: unknown): string;
  /** How to ask the person in front of the client (`ask_person`); absent outside a tools/call. */
  person?: PersonContext;
}

export interface Deprecation {
  /** When the tool was deprecated, ISO-8601 date (`YYYY-MM-DD`). */
  since: string;
  /** Removal date, ISO-8601 (`YYYY-MM-DD`); at least 90 days after the announcement (CHANGELOG.md states the policy). */
  sunset: string;
  /** The tool that replaces this one. */
  replacement: string;
}

/** A `resource_link` content item (MCP 2025-06-18 and later). */
export interface ResourceLinkItem {
  uri: string;
  name: string;
  mimeType: string;
  description?: string;
}

type Annotations = Required<
  Pick<ToolAnnotations, 'readOnlyHint' | 'destructiveHint' | 'idempotentHint' | 'openWorldHint'>
>;

/**
 * What a tool's file writes: its public contract (name, title, description, schemas,
 * annotations, the scope it needs, whether the MCP App view draws its answer, its deprecation)
 * next to the function that serves it. `run` receives the arguments as `input` parsed them
 * and returns a value matching `output`.
 */
export interface ToolSpec<I extends z.ZodObject, O extends z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  /**
   * What `tools/list` publishes of the answer when `output` says more than a client needs: its
   * shape and the fields a model reads. Every answer must still satisfy it (published schemas
   * are open to fields they do not name); the view's types keep reading `output`.
   */
  listedOutput?: z.ZodObject;
  /**
   * Input properties whose fields another tool's listing already describes (update_quiz's
   * questions and settings are create_quiz's): `tools/list` keeps their shape but names their
   * meaning and bounds once, in that tool. The property's own description must say so.
   */
  describedIn?: { tool: string; properties: readonly string[] };
  annotations: Annotations;
  scope: Scope;
  /**
   * The toolset whose connections list this tool (toolsets.ts); none: the default list. Any
   * connection may call it all the same.
   */
  toolset?: ToolsetName;
  /** True when the MCP App view (apps/view/) draws this tool's answer: its listing links the view. */
  view?: boolean;
  deprecation?: Deprecation;
  /**
   * Large content the answer points at rather than carries (a CSV, an image): each becomes a
   * `resource_link` item after the JSON text, so a client fetches it only if it wants it.
   */
  resourceLinks?(output: z.output<O>): ResourceLinkItem[];
  /** An `InputRequiredResult` asks the client for input first (2026-07-28; approvals/). */
  run(args: z.output<I>, context: ToolContext): Promise<z.input<O> | InputRequiredResult>;
}

/** Arguments `input` accepted, bound to the tool's handler; or why they were refused. */
export type PreparedCall =
  | { ok: true; run(context: ToolContext): Promise<Record<string, unknown> | InputRequiredResult> }
  | { ok: false; error: z.ZodError };

/**
 * A tool as the registry holds it: the contract, and `prepare`, which parses the arguments
 * with the tool's own schema. The input type stays inside `defineTool`, so tools of different
 * argument types share this one type and the tool list needs no cast.
 */
export interface ToolDefinition<O extends z.ZodObject = z.ZodObject> extends Omit<
  ToolSpec<z.ZodObject, O>,
  'run' | 'view' | 'resourceLinks'
> {
  view: boolean;
  resourceLinks?(output: Record<string, unknown>): ResourceLinkItem[];
  prepare(args: unknown): PreparedCall;
}

export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(
  spec: ToolSpec<I, O>,
): ToolDefinition<O> {
  const { run, view = false, resourceLinks, ...contract } = spec;
  return {
    ...contract,
    view,
    ...(resourceLinks
      ? { resourceLinks: (output: Record<string, unknown>) => resourceLinks(output as z.output<O>) }
      : {}),
    prepare(args) {
      const parsed = spec.input.safeParse(args);
      if (!parsed.success) return { ok: false, error: parsed.error };
      return { ok: true, run: (context) => run(parsed.data, context) };
    },
  };
}

/** What a tool answers, as its output schema reads it (for the MCP App view's types). */
export type ToolOutput<T extends ToolDefinition> = z.output<T['output']>;

export const READ_ONLY = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;

import {
  CLIENT_CAPABILITIES_META_KEY,
  McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type McpServerFactory,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { isDatabaseUnavailable } from '../db/errors';
import type { DomainDeps } from '../domain/deps';
import { unstorableField } from '../domain/text-integrity';
import { isDomainError } from '../domain/errors';
import type { Metrics } from '../http/metrics';
import type { Logger } from '../logger';
import { SERVER_NAME, TOOLSET_VERSION } from '../version';
import type { ToolEntry, ToolRegistry } from './registry';
import { declaredModes, declaredUrl, noteDeclared, type PersonContext } from './approvals/person';
import { MCP_APP_MIME_TYPE, quizAppMeta, QUIZ_APP_URI, viewLink } from './apps/quiz-app-resource';
import { registerCompletions } from './completions';
import { serverInstructions } from './instructions';
import type { PromptContext, PromptDefinition } from './prompt';
import { PROMPTS } from './prompts';
import { registerQuizResource } from './quiz-resource';
import { takeOver, type ResolvedRequest } from './resolved-request';
import { registerSkills } from './skills';
import { discoverEveryServedVersion } from './served-versions';

/**
 * The SDK serves every request from a fresh McpServer (one instance cannot serve concurrent
 * requests: it would mix up their ids). So the factory does the least it can per request:
 * the tools' JSON Schemas, their SDK wrappers and one JSON Schema validator are made once;
 * each request only registers the prepared tools it can reach on a new instance. What the
 * edge resolved about the request comes back from the SDK with `takeOver`.
 */
const SERVER_INFO = { name: SERVER_NAME, version: TOOLSET_VERSION };
const SHARED_VALIDATOR = new AjvJsonSchemaValidator();

export interface ServerFactoryOptions {
  registry: ToolRegistry;
  deps: DomainDeps;
  logger: Logger;
  metrics?: Metrics;
  /** The MCP App view's HTML; without it no resource is listed (the tools still link to it). */
  quizAppHtml?: string | undefined;
}

export function createServerFactory(options: ServerFactoryOptions): McpServerFactory {
  const { registry, deps, logger, metrics, quizAppHtml } = options;
  const promptsByName = new Map(PROMPTS.map((prompt) => [prompt.name, prompt]));
  const instructions = serverInstructions(deps.baseUrl, registry);

  function registerPrompt(server: McpServer, prompt: PromptDefinition, request: ResolvedRequest): void {
    const context: PromptContext = { deps, principal: request.principal };
    const { name, title, description, argsSchema } = prompt;
    server.registerPrompt(name, { title, description, argsSchema }, async (args) => {
      // As for tools: text no quiz can hold is the caller's error, never a failed query.
      const badText = unstorableField(args);
      if (badText)
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${badText.field}: ${badText.message}`);
      try {
        return await prompt.get(args as Record<string, string | undefined>, context);
      } catch (error) {
        if (isDomainError(error)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.message);
        const text = internalErrorText(logger, error, name, request.requestId);
        throw new ProtocolError(ProtocolErrorCode.InternalError, text);
      }
    });
  }

  function registerTool(server: McpServer, tool: ToolEntry, request: ResolvedRequest): void {
    const { definition, listing, sdkSchemas } = tool;
    const { principal, requestId } = request;
    const onInternalError = (error: unknown) => internalErrorText(logger, error, definition.name, requestId);
    server.registerTool(
      definition.name,
      {
        title: listing.title,
        description: listing.description,
        inputSchema: sdkSchemas.input,
        outputSchema: sdkSchemas.output,
        annotations: listing.annotations,
        ...(definition.view ? { _meta: viewLink() } : {}),
      },
      async (args: unknown, ctx: ServerContext) => {
        const person = personContext(request, ctx, deps);
        const result = await registry.call(tool, args, { deps, principal, onInternalError, person });
        metrics?.observeToolCall(definition.name, 'isError' in result && result.isError ? 'error' : 'ok');
        return result;
      },
    );
  }

  return async ({ authInfo }) => {
    const request = takeOver(authInfo);
    if (request.era === 'legacy' && request.message.method === 'initialize')
      await noteDeclared(deps.approvals, request.principal, request.message.params?.capabilities);
    const called = request.toolCall?.tool;
    // A tools/call can reach only its tool: no prompt, resource or completion is registered.
    const everything = !request.toolCall;
    const server = new McpServer(SERVER_INFO, {
      // Advertise only what is delivered. Nothing announces a change of a list: this endpoint
      // keeps no stream open (GET is 405), and the lists change only with a new release.
      capabilities: {
        tools: { listChanged: false },
        ...(everything
          ? { resources: { listChanged: false }, prompts: { listChanged: false }, completions: {} }
          : {}),
      },
      instructions,
      jsonSchemaValidator: SHARED_VALIDATOR,
    });
    discoverEveryServedVersion(server);
    if (called) registerTool(server, called, request);
    else for (const tool of registry.listedWith(request.toolsets)) registerTool(server, tool, request);
    if (everything) {
      const context: PromptContext = { deps, principal: request.principal };
      const usable = PROMPTS.filter((prompt) => !prompt.scope || request.principal.scopes.has(prompt.scope));
      for (const prompt of usable) registerPrompt(server, prompt, request);
      registerCompletions(server, promptsByName, context);
      registerQuizResource(server, context);
      // The skills extension: skills/list, skills/get and the skill:// files.
      registerSkills(server);
      // The view is read by hosts with resources/read.
      if (quizAppHtml !== undefined) registerQuizApp(server, quizAppHtml, quizAppMeta(deps.baseUrl));
    }
    return server;
  };
}

/**
 * What a tool needs to ask the person (approvals/person.ts): the 2026-07-28 client declares what
 * it can show on each request's envelope; a 2025 client only at its initialize.
 */
function personContext(request: ResolvedRequest, ctx: ServerContext, deps: DomainDeps): PersonContext {
  const meta = request.message.params?._meta as Record<string, unknown> | undefined;
  const declared = meta?.[CLIENT_CAPABILITIES_META_KEY] as { elicitation?: unknown } | undefined;
  const modern = request.era === 'modern';
  const state = modern ? ctx.mcpReq.requestState<unknown>() : undefined;
  return {
    era: request.era,
    canShow: async () =>
      modern
        ? declaredModes(declared?.elicitation)
        : { form: false, url: await declaredUrl(deps.approvals, request.principal) },
    inputResponses: modern ? ctx.mcpReq.inputResponses : undefined,
    requestState: typeof state === 'string' ? state : undefined,
  };
}

function registerQuizApp(server: McpServer, html: string, meta: ReturnType<typeof quizAppMeta>): void {
  server.registerResource(
    'quiz-app',
    QUIZ_APP_URI,
    {
      title: 'Quiz preview, results and quiz list',
      description: 'The view MCP Apps hosts show beside the quiz tools’ answers.',
      mimeType: MCP_APP_MIME_TYPE,
      _meta: meta,
    },
    async () => ({
      contents: [{ uri: QUIZ_APP_URI, mimeType: MCP_APP_MIME_TYPE, text: html, _meta: meta }],
    }),
  );
}

/** What a caller reads when a tool fails for a reason that is not theirs; the details go to the log. */
function internalErrorText(logger: Logger, error: unknown, tool: string, requestId: string): string {
  if (isDatabaseUnavailable(error)) {
    logger.warn({ err: error, requestId, tool }, 'database unavailable');
    return `The service cannot reach its database right now, so ${tool} did not run and nothing was changed. Try again in a few seconds.`;
  }
  logger.error({ err: error, requestId, tool }, 'tool failed');
  return (
    `The service could not complete ${tool} because of an internal error; nothing is known to have changed. ` +
    `Try again in a moment. If it keeps failing, report request id ${requestId}.`
  );
}

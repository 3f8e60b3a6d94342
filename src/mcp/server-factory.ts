import { McpServer, type AuthInfo, type McpServerFactory } from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { isDatabaseUnavailable } from '../db/errors';
import type { DomainDeps } from '../domain/deps';
import type { Metrics } from '../http/metrics';
import type { Logger } from '../logger';
import { SERVER_NAME, TOOLSET_VERSION } from '../version';
import type { ToolRegistry } from './registry';
import {
  MCP_APP_MIME_TYPE,
  QUIZ_APP_META,
  QUIZ_APP_URI,
  TOOLS_WITH_VIEW,
  viewLink,
} from './apps/quiz-app-resource';
import type { Principal } from '../identity/principal';

/**
 * The SDK serves every request from a fresh McpServer (one instance cannot serve concurrent
 * requests: it would mix up their ids). So the factory does the least it can per request:
 * the tools' JSON Schemas, their SDK wrappers and one JSON Schema validator are made once;
 * each request only registers the eight prepared tools on a new instance.
 */
const SERVER_INFO = { name: SERVER_NAME, version: TOOLSET_VERSION };
const SHARED_VALIDATOR = new AjvJsonSchemaValidator();

/** Who is calling and under which request id: carried from our edge to the tools in `AuthInfo.extra`. */
export interface McpCaller {
  principal: Principal;
  requestId: string;
  /**
   * The tool a tools/call names, when the edge has checked that it exists. Such a request can
   * reach no other tool, so its server registers only that one; every other request (tools/list,
   * initialize, server/discover) gets all of them.
   */
  tool?: string;
}

/** The SDK's pass-through `AuthInfo` for a caller our edge has authenticated. */
export function authInfoFor(credential: string, caller: McpCaller): AuthInfo {
  const { principal } = caller;
  return {
    token: credential,
    clientId: principal.credential.kind === 'oauth' ? principal.credential.clientId : principal.credential.id,
    scopes: [...principal.scopes],
    extra: { caller },
  };
}

function callerOf(authInfo: AuthInfo | undefined): McpCaller {
  const caller = authInfo?.extra?.caller as McpCaller | undefined;
  // The endpoint authenticates every request before the SDK runs; no caller is a wiring error.
  if (!caller) throw new Error('MCP request reached the SDK without an authenticated caller');
  return caller;
}

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
  return ({ authInfo }) => {
    const { principal, requestId, tool: called } = callerOf(authInfo);
    const server = new McpServer(SERVER_INFO, {
      // Stateless: there is no stream on which to announce a change of the tool list.
      capabilities: { tools: { listChanged: false } },
      jsonSchemaValidator: SHARED_VALIDATOR,
    });
    for (const tool of called
      ? registry.listing.filter((listed) => listed.name === called)
      : registry.listing) {
      const schemas = registry.sdkSchemas.get(tool.name);
      if (!schemas) continue;
      const onInternalError = (error: unknown) => internalErrorText(logger, error, tool.name, requestId);
      server.registerTool(
        tool.name,
        {
          title: tool.title,
          description: tool.description,
          inputSchema: schemas.input,
          outputSchema: schemas.output,
          annotations: tool.annotations,
          ...(TOOLS_WITH_VIEW.has(tool.name) ? { _meta: viewLink() } : {}),
        },
        async (args: unknown) => {
          const result = await registry.call(tool.name, args, { deps, principal, onInternalError });
          metrics?.observeToolCall(tool.name, result.isError ? 'error' : 'ok');
          return result;
        },
      );
    }
    // The view is read by hosts with resources/read; a tools/call never needs it.
    if (!called && quizAppHtml !== undefined) registerQuizApp(server, quizAppHtml);
    return server;
  };
}

function registerQuizApp(server: McpServer, html: string): void {
  server.registerResource(
    'quiz-app',
    QUIZ_APP_URI,
    {
      title: 'Quiz preview, results and quiz list',
      description: 'The view MCP Apps hosts show beside the quiz tools’ answers.',
      mimeType: MCP_APP_MIME_TYPE,
      _meta: QUIZ_APP_META,
    },
    async () => ({
      contents: [{ uri: QUIZ_APP_URI, mimeType: MCP_APP_MIME_TYPE, text: html, _meta: QUIZ_APP_META }],
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

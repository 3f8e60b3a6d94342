import type { Config } from '../config';
import { z } from 'zod';
import { ANSWER_FIELD_SPECS, type AnswerFieldSpec } from '../domain/question-types';
import { attemptFields } from '../domain/question-types/merge-fields';
import { PROBLEMS } from '../http/problem';
import type { ToolRegistry } from '../mcp/registry';
import { oauthOpenApiPaths } from '../oauth/openapi-paths';
import { TOOLSET_VERSION } from '../version';
import { WEBHOOK_EVENT_DATA, WEBHOOK_EVENT_TYPES, WEBHOOK_EVENTS } from '../domain/webhooks/events';
import { inlineDefinitions } from '../mcp/portable-json-schema';

/**
 * GET /openapi.json: OpenAPI 3.1 for every documented HTTP endpoint.
 * `info.version` is the tool set's semver, from the same constant as the MCP serverInfo.
 * The tools themselves travel inside JSON-RPC, so their schemas are listed under
 * `x-mcp-tools` as well as described in prose on /en/docs/api-reference.
 */
type Json = Record<string, unknown>;

const problemResponse = (description: string, headers: Json = {}): Json => ({
  description,
  headers,
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});

const rateLimitHeaders: Json = {
  'RateLimit-Policy': { $ref: '#/components/headers/RateLimit-Policy' },
  RateLimit: { $ref: '#/components/headers/RateLimit' },
  'RateLimit-Limit': { $ref: '#/components/headers/RateLimit-Limit' },
  'RateLimit-Remaining': { $ref: '#/components/headers/RateLimit-Remaining' },
  'RateLimit-Reset': { $ref: '#/components/headers/RateLimit-Reset' },
};

const jsonRpcError = (description: string, headers: Json = {}): Json => ({
  description,
  headers,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/JsonRpcErrorResponse' } } },
});

const intHeader = (description: string): Json => ({ description, schema: { type: 'integer', minimum: 0 } });

function mcpOperation(config: Config): Json {
  const { max, windowSeconds } = config.rateLimit;
  return {
    operationId: 'mcp',
    summary: 'MCP endpoint (JSON-RPC 2.0 over Streamable HTTP, stateless)',
    description:
      'Send one JSON-RPC request: `tools/list` or `tools/call` (no `initialize` needed; it also works). ' +
      'The answer is a server-sent-events stream whose `message` event carries the JSON-RPC response, ' +
      'or plain JSON for clients that accept only application/json. ' +
      `Rate limit: ${max} requests per ${windowSeconds} s per credential; without a valid credential, per client IP.`,
    security: [{ bearer: [] }, { oauth: ['quizzes:read', 'quizzes:write'] }],
    parameters: [
      {
        name: 'Accept',
        in: 'header',
        required: false,
        description: "application/json, text/event-stream (curl's */* is accepted too).",
        schema: { type: 'string', example: 'application/json, text/event-stream' },
      },
      {
        name: 'MCP-Protocol-Version',
        in: 'header',
        required: false,
        description: 'Negotiated transport version (optional without initialize).',
        schema: { type: 'string', example: '2025-06-18' },
      },
    ],
    requestBody: {
      required: true,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/JsonRpcRequest' } } },
    },
    responses: {
      '200': {
        description: 'The JSON-RPC response. Tool failures are results with `isError: true`.',
        headers: rateLimitHeaders,
        content: {
          'text/event-stream': {
            schema: { type: 'string', description: 'event: message\\ndata: <JSON-RPC response>' },
          },
          'application/json': { schema: { $ref: '#/components/schemas/JsonRpcResponse' } },
        },
      },
      '400': jsonRpcError('Malformed JSON (-32700) or not a JSON-RPC request (-32600).', rateLimitHeaders),
      '401': {
        description: 'Missing, malformed, unknown or revoked credential (RFC 6750).',
        headers: {
          ...rateLimitHeaders,
          'WWW-Authenticate': {
            description:
              'Bearer challenge with resource_metadata and scope (and error="invalid_token" when a credential was sent).',
            schema: { type: 'string' },
          },
        },
        content: { 'application/json': { schema: { $ref: '#/components/schemas/OAuthError' } } },
      },
      '403': problemResponse('A browser Origin or Host this service does not accept.'),
      '406': problemResponse('The Accept header rules out both SSE and JSON.', rateLimitHeaders),
      '413': problemResponse('Body larger than the limit.', rateLimitHeaders),
      '415': problemResponse('Body is not application/json.', rateLimitHeaders),
      '429': problemResponse('Rate limit exceeded.', {
        ...rateLimitHeaders,
        'Retry-After': intHeader('Seconds to wait before retrying.'),
      }),
    },
  };
}

/** OpenAPI 3.1 `webhooks`: what the service POSTs to owners' endpoints, one entry per event. */
function webhookDescriptions(): Json {
  const header = (description: string) => ({ required: true, description, schema: { type: 'string' } });
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `webhook_${type.replace('.', '_')}`,
          summary: WEBHOOK_EVENTS[type],
          parameters: [
            { name: 'webhook-id', in: 'header', ...header('The event id; de-duplicate by it.') },
            { name: 'webhook-timestamp', in: 'header', ...header('Seconds since 1970 when it was signed.') },
            {
              name: 'webhook-signature',
              in: 'header',
              ...header(
                'Space-separated "v1,<base64 HMAC-SHA256 of id.timestamp.body>", one per signing secret.',
              ),
            },
          ],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['type', 'timestamp', 'data'],
                  properties: {
                    type: { const: type },
                    timestamp: { type: 'string', format: 'date-time' },
                    data: {
                      type: 'object',
                      properties: Object.fromEntries(
                        Object.entries(WEBHOOK_EVENT_DATA[type]).map(([field, description]) => [
                          field,
                          { description },
                        ]),
                      ),
                    },
                  },
                },
              },
            },
          },
          responses: {
            '2XX': {
              description: 'Received. Anything else, a redirect or no answer within 15 s is retried.',
            },
            '410': { description: 'Gone: the endpoint is disabled at once.' },
          },
        },
      },
    ]),
  );
}

/** One type's answer in a submission: the question's id and the type's one field. */
function answerItem(field: AnswerFieldSpec): Json {
  return {
    type: 'object',
    ...(field.description ? { description: field.description } : {}),
    required: ['question_id', field.name],
    additionalProperties: false,
    properties: { question_id: { type: 'string' }, [field.name]: field.jsonSchema },
  } as Json;
}

/** The paths of the service itself: the MCP endpoint, this document, the pages and the probes. */
function servicePaths(config: Config): Json {
  return {
    '/api/mcp': {
      post: mcpOperation(config),
      get: {
        operationId: 'mcpGet',
        summary: 'Not supported',
        responses: {
          '405': problemResponse('Only POST is served.', {
            Allow: { schema: { type: 'string', const: 'POST' } },
          }),
        },
      },
      delete: {
        operationId: 'mcpDelete',
        summary: 'Not supported',
        responses: {
          '405': problemResponse('Only POST is served.', {
            Allow: { schema: { type: 'string', const: 'POST' } },
          }),
        },
      },
    },
    '/openapi.json': {
      get: {
        operationId: 'openapi',
        summary: 'This document',
        responses: {
          '200': {
            description: 'OpenAPI 3.1',
            content: { 'application/json': { schema: { type: 'object' } } },
          },
        },
      },
    },
    '/en/docs/api-reference': {
      get: {
        operationId: 'apiReference',
        summary: 'Human API reference (problem `type` URIs point here)',
        responses: {
          '200': { description: 'HTML', content: { 'text/html': { schema: { type: 'string' } } } },
        },
      },
    },
    '/q/{slug}': {
      get: {
        operationId: 'quizPage',
        summary: 'Public page of a published quiz (HTML form)',
        parameters: [{ name: 'slug', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          '200': { description: 'HTML', content: { 'text/html': { schema: { type: 'string' } } } },
          '404': { description: 'HTML not-found page' },
        },
      },
    },
    '/readyz': {
      get: {
        operationId: 'ready',
        summary:
          'Ready to serve: the database answers (Redis, when configured, is reported; its absence only degrades)',
        responses: {
          '200': {
            description: 'ready or degraded',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Readiness' } } },
          },
          '503': {
            description: 'the database is unreachable',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Readiness' } } },
          },
        },
      },
    },
    ...oauthOpenApiPaths(),
    '/healthz': {
      get: {
        operationId: 'health',
        summary: 'The process is up',
        responses: {
          '200': {
            description: 'ok',
            content: {
              'application/json': {
                schema: { type: 'object', properties: { status: { type: 'string' } } },
              },
            },
          },
        },
      },
    },
  };
}

/** The respondents' JSON door: a submission, and the attempt that comes first when a quiz needs one. */
function respondentPaths(): Json {
  return {
    '/api/quizzes/{slug}/responses': {
      post: {
        operationId: 'submitResponse',
        summary: 'Submit a response to a published quiz (no credential; rate-limited per client IP)',
        parameters: [
          {
            name: 'slug',
            in: 'path',
            required: true,
            schema: { type: 'string', pattern: '^[a-z0-9-]{1,80}$' },
          },
          {
            name: 'Idempotency-Key',
            in: 'header',
            required: false,
            description:
              'A new random key per submission (a UUID). Sent again with the same body within 24 h, nothing new is stored and the answer is the first one (the same 201 body). Without it, every submission is stored.',
            schema: { type: 'string', minLength: 1, maxLength: 255 },
          },
        ],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ResponseSubmission' } } },
        },
        responses: {
          '201': {
            description:
              'Stored and scored. Score fields are null when the quiz hides scores from respondents.',
            headers: { Location: { schema: { type: 'string' } }, ...rateLimitHeaders },
            content: { 'application/json': { schema: { $ref: '#/components/schemas/ResponseReceipt' } } },
          },
          '303': {
            description:
              'Idempotency-Key repeated after its attempt was used up or the quiz closed: the first response is stored; Location is its result page.',
            headers: { Location: { schema: { type: 'string' } } },
          },
          '400': problemResponse('Malformed JSON.'),
          '404': problemResponse('No published quiz with this slug.'),
          '409': problemResponse(
            'The quiz is not accepting responses, is outside its window, or the attempt is refused (no valid attempt_token, past its deadline, already submitted, attempts per email used, or the quiz changed meanwhile); `detail` says which.',
          ),
          '413': problemResponse('Body larger than the limit.'),
          '415': problemResponse('Body is not application/json.'),
          '422': problemResponse(
            'Some answers or respondent fields are not valid, or the Idempotency-Key is malformed or was used with a different body; `errors` lists each with its field.',
          ),
          '429': problemResponse('Rate limit exceeded.', {
            ...rateLimitHeaders,
            'Retry-After': intHeader('Seconds to wait before retrying.'),
          }),
        },
      },
    },
    '/api/quizzes/{slug}/attempts': {
      post: {
        operationId: 'startAttempt',
        summary:
          'Start an attempt at a published quiz (no credential; counted with submissions): its token, deadline and questions',
        parameters: [
          {
            name: 'slug',
            in: 'path',
            required: true,
            schema: { type: 'string', pattern: '^[a-z0-9-]{1,80}$' },
          },
        ],
        requestBody: {
          required: false,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                additionalProperties: false,
                properties: {
                  respondent: {
                    type: 'object',
                    additionalProperties: false,
                    properties: { email: { type: 'string', format: 'email' } },
                  },
                },
              },
            },
          },
        },
        responses: {
          '201': {
            description: 'Started.',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/AttemptStarted' } } },
          },
          '404': problemResponse('No published quiz with this slug.'),
          '409': problemResponse(
            'Closed, outside its opens_at/closes_at window, or the email has used its attempts.',
          ),
          '422': problemResponse(
            'The quiz limits attempts per email and respondent.email is missing or invalid.',
          ),
          '429': problemResponse('Rate limit exceeded.', {
            ...rateLimitHeaders,
            'Retry-After': intHeader('Seconds to wait before retrying.'),
          }),
        },
      },
    },
  };
}

/** A type's field as JSON Schema: zod's, without the safe-integer bounds every integer has. */
function fieldSchema(schema: z.ZodType): Json {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' });
  return JSON.parse(JSON.stringify(json), (key, value: unknown) =>
    (key === 'minimum' && value === -Number.MAX_SAFE_INTEGER) ||
    (key === 'maximum' && value === Number.MAX_SAFE_INTEGER)
      ? undefined
      : value,
  ) as Json;
}

/**
 * A question as the JSON attempt shows it: its id, type and text, then what each type shows of
 * it, from the types' own schemas (their fields.ts `attempt`), each field once.
 */
function attemptQuestion(): Json {
  const { fields, patterns } = attemptFields();
  const described = (merged: ReadonlyMap<string, z.ZodType>) =>
    Object.fromEntries([...merged].map(([name, schema]) => [name, fieldSchema(schema)]));
  return {
    type: 'object',
    properties: {
      question_id: { type: 'string' },
      type: { type: 'string' },
      text: {
        type: 'string',
        description:
          "As shown: a calculated question's {name}s are this attempt's own values (each with its unit), kept with the attempt; answer it with `number`.",
      },
      ...described(fields),
    },
    patternProperties: described(patterns),
  };
}

/** How to authenticate, and the rate-limit headers every limited answer carries. */
function securityAndHeaders(config: Config): Json {
  const base = config.baseUrl;
  return {
    securitySchemes: {
      bearer: {
        type: 'http',
        scheme: 'bearer',
        description: 'A personal API key (svc_...) or an OAuth access token.',
      },
      oauth: {
        type: 'oauth2',
        flows: {
          authorizationCode: {
            authorizationUrl: `${base}/oauth/authorize`,
            tokenUrl: `${base}/oauth/token`,
            refreshUrl: `${base}/oauth/token`,
            scopes: {
              'quizzes:read': 'Read your quizzes and results',
              'quizzes:write': 'Create, change, publish and delete your quizzes',
            },
          },
        },
      },
    },
    headers: {
      'RateLimit-Policy': {
        description: '"default";q=<limit>;w=<window seconds>',
        schema: {
          type: 'string',
          example: `"default";q=${config.rateLimit.max};w=${config.rateLimit.windowSeconds}`,
        },
      },
      RateLimit: {
        description: '"default";r=<remaining>;t=<seconds to reset>',
        schema: { type: 'string' },
      },
      'RateLimit-Limit': intHeader('Requests allowed in the window.'),
      'RateLimit-Remaining': intHeader('Requests left in the window.'),
      'RateLimit-Reset': intHeader('Seconds until the window resets.'),
    },
  };
}

/** What a respondent sends and is answered: a submission, an attempt started, a receipt. */
function respondentSchemas(): Json {
  return {
    ResponseSubmission: {
      type: 'object',
      required: ['answers'],
      additionalProperties: false,
      properties: {
        attempt_token: {
          type: 'string',
          description:
            'The token POST /api/quizzes/{slug}/attempts returned; required by a quiz with a time limit, a shuffle, a pool or an attempt limit.',
        },
        respondent: {
          type: 'object',
          additionalProperties: false,
          properties: { name: { type: 'string' }, email: { type: 'string', format: 'email' } },
        },
        answers: {
          type: 'array',
          items: {
            oneOf: ANSWER_FIELD_SPECS.map((answerField) => answerItem(answerField)),
          },
        },
      },
    },
    AttemptStarted: {
      type: 'object',
      properties: {
        attempt_token: { type: 'string', description: 'Send it with the answers.' },
        started_at: { type: 'string', format: 'date-time' },
        deadline: {
          type: ['string', 'null'],
          format: 'date-time',
          description: 'Null without a time limit.',
        },
        submit_by: {
          type: 'string',
          format: 'date-time',
          description: 'The last moment a submission is accepted (the deadline plus a short grace).',
        },
        time_limit_minutes: { type: ['integer', 'null'] },
        submit_url: { type: 'string' },
        questions: {
          type: 'array',
          description:
            "The questions drawn, in the order to show; options in the order to show, each with its canonical option_index; the parts a type names by id (items, prompts, matches, a blank's options) under ids of this attempt. No answer key.",
          items: attemptQuestion(),
        },
      },
    },
    ResponseReceipt: {
      type: 'object',
      properties: {
        response_id: { type: 'string' },
        score: { type: ['integer', 'null'] },
        max_score: { type: ['integer', 'null'] },
        percent: { type: ['number', 'null'] },
        passed: { type: ['boolean', 'null'] },
        grading_status: {
          type: 'string',
          enum: ['pending', 'final'],
          description:
            "pending while an essay waits for the quiz owner's grade: the score is the score so far, passed is null and the review waits too.",
        },
        result_url: { type: 'string' },
        kept_result_url: {
          type: 'string',
          format: 'uri',
          description:
            "The respondent's kept link to this result (/q/{slug}/result?key=...), the final grade too once an essay is graded: give it to the respondent and keep it private, since anyone holding it sees the result. Its secret is stored only hashed, so it is given once: absent when the answer repeats an earlier submission under the same Idempotency-Key.",
        },
        review: {
          type: ['array', 'null'],
          description:
            'Each answer marked, with the right answer and its explanation, when the quiz shows them right after submitting (show_correct_answers: after_submit); null otherwise.',
          items: {
            type: 'object',
            properties: {
              question_id: { type: 'string' },
              text: { type: 'string' },
              type: { type: 'string' },
              your_answer: { type: ['string', 'null'] },
              points: { type: ['integer', 'null'] },
              max_points: { type: ['integer', 'null'] },
              correct_answers: { type: ['array', 'null'], items: { type: 'string' } },
              explanation: { type: ['string', 'null'] },
            },
          },
        },
        time_up: {
          type: 'boolean',
          description:
            "True when sent after the attempt's deadline, within its grace: stored as it was, whatever require_all_answers says.",
        },
        out_of_time: {
          type: 'array',
          items: { type: 'string' },
          description: 'The question_ids left blank when the time ran out (each scores 0); [] otherwise.',
        },
      },
    },
  };
}

/** The protocol's own shapes: problems, readiness, OAuth errors and JSON-RPC. */
function protocolSchemas(config: Config): Json {
  const base = config.baseUrl;
  const problemCodes = Object.keys(PROBLEMS);
  return {
    Problem: {
      type: 'object',
      required: ['type', 'title', 'status', 'code'],
      properties: {
        type: {
          type: 'string',
          format: 'uri',
          description: `${base}/en/docs/api-reference#error-<code>`,
        },
        title: { type: 'string' },
        status: { type: 'integer' },
        code: { type: 'string', enum: problemCodes },
        detail: { type: 'string' },
        hint: { type: 'string' },
      },
    },
    Readiness: {
      type: 'object',
      properties: {
        status: { type: 'string', enum: ['ready', 'degraded', 'unavailable'] },
        checks: { type: 'object', additionalProperties: { type: 'string', enum: ['ok', 'unavailable'] } },
      },
    },
    OAuthError: {
      type: 'object',
      required: ['error'],
      properties: { error: { type: 'string' }, error_description: { type: 'string' } },
    },
    JsonRpcRequest: {
      type: 'object',
      required: ['jsonrpc', 'method'],
      properties: {
        jsonrpc: { const: '2.0' },
        id: { type: ['string', 'integer'] },
        method: { type: 'string', enum: ['tools/list', 'tools/call', 'initialize', 'ping'] },
        params: { type: 'object' },
      },
    },
    JsonRpcResponse: {
      type: 'object',
      required: ['jsonrpc'],
      properties: {
        jsonrpc: { const: '2.0' },
        id: { type: ['string', 'integer', 'null'] },
        result: { type: 'object' },
        error: { $ref: '#/components/schemas/JsonRpcError' },
      },
    },
    JsonRpcErrorResponse: {
      type: 'object',
      required: ['jsonrpc', 'error'],
      properties: {
        jsonrpc: { const: '2.0' },
        id: { type: ['string', 'integer', 'null'] },
        error: { $ref: '#/components/schemas/JsonRpcError' },
      },
    },
    JsonRpcError: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'integer' }, message: { type: 'string' } },
    },
  };
}

export function buildOpenApi(config: Config, registry: ToolRegistry): Json {
  const base = config.baseUrl;
  return {
    openapi: '3.1.0',
    info: {
      title: 'Quiz service',
      version: TOOLSET_VERSION,
      description: `Quizzes for AI assistants through one MCP endpoint. Reference: ${base}/en/docs/api-reference`,
    },
    servers: [{ url: base }],
    paths: { ...servicePaths(config), ...respondentPaths() },
    components: {
      ...securityAndHeaders(config),
      schemas: { ...protocolSchemas(config), ...respondentSchemas() },
    },
    webhooks: webhookDescriptions(),
    'x-mcp-tools': registry.listing.map((tool) => ({
      name: tool.name,
      title: tool.title,
      inputSchema: tool.inputSchema,
      // Its references point into its own $defs, which this document would read as its own.
      ...(tool.outputSchema ? { outputSchema: inlineDefinitions(tool.outputSchema) } : {}),
    })),
  };
}

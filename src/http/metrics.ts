import { timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import { sendProblem } from './problem';

/**
 * Prometheus metrics, one registry per app (tests build many apps in one process):
 * requests by route, method and status, latency histograms, and MCP tool calls by tool and
 * outcome. GET /metrics is closed to the public: with METRICS_TOKEN it needs that bearer
 * token, without it only loopback clients are answered (everyone else gets the 404 of any
 * unknown path, so it is not even advertised).
 */
export interface Metrics {
  registry: Registry;
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  observeToolCall(tool: string, outcome: 'ok' | 'error' | 'unknown'): void;
  /** One MCP request by protocol era and version: when the 2025 era may go, this shows it. */
  observeMcpRequest(era: string, protocolVersion: string): void;
  /** A "last used" write scheduled for a credential (at most one per credential a minute). */
  observeLastUsedWrite(kind: 'api_key' | 'oauth_grant'): void;
  /** One webhook delivery attempt by outcome (success, http_error, gone, redirect, timeout...). */
  observeWebhookAttempt(outcome: string): void;
}

/**
 * How often the event-loop delay is sampled. Each sample is the time between two timer turns, so
 * an idle loop reads this interval itself: the delay is what a figure exceeds it by.
 */
export const EVENT_LOOP_SAMPLE_MS = 10;

export function createMetrics(options: { defaultMetrics?: boolean } = {}): Metrics {
  const registry = new Registry();
  if (options.defaultMetrics)
    collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by route, method and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by route and method',
    labelNames: ['method', 'route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const toolCalls = new Counter({
    name: 'mcp_tool_calls_total',
    help: 'MCP tool calls by tool and outcome (ok, error = an isError result, unknown = no such tool)',
    labelNames: ['tool', 'outcome'] as const,
    registers: [registry],
  });
  const mcpRequests = new Counter({
    name: 'mcp_requests_total',
    help: 'MCP requests by protocol era (legacy = 2025 and earlier, modern = 2026-07-28) and version',
    labelNames: ['era', 'protocol_version'] as const,
    registers: [registry],
  });
  const lastUsedWrites = new Counter({
    name: 'credential_last_used_writes_total',
    help: 'Writes of a credential\'s "last used" time, by kind (api_key, oauth_grant): at most one per credential a minute',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  const webhookAttempts = new Counter({
    name: 'webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome: success, http_error, gone, redirect, timeout, network_error, refused_address, disabled',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  // Labelled children are looked up once per label set: hashing label objects on every
  // request costs more than the counting itself.
  const requestChildren = new Map<string, { count: () => void; time: (seconds: number) => void }>();
  const toolChildren = new Map<string, () => void>();
  const mcpChildren = new Map<string, () => void>();
  return {
    registry,
    observeRequest(method, route, status, seconds) {
      const key = `${method} ${route} ${status}`;
      let child = requestChildren.get(key);
      if (!child) {
        const counter = requests.labels(method, route, String(status));
        const histogram = duration.labels(method, route);
        child = { count: () => counter.inc(), time: (s) => histogram.observe(s) };
        requestChildren.set(key, child);
      }
      child.count();
      child.time(seconds);
    },
    observeToolCall(tool, outcome) {
      const key = `${tool} ${outcome}`;
      let child = toolChildren.get(key);
      if (!child) {
        const counter = toolCalls.labels(tool, outcome);
        child = () => counter.inc();
        toolChildren.set(key, child);
      }
      child();
    },
    observeMcpRequest(era, protocolVersion) {
      // A client may send any string as its version: only well-formed dates become labels.
      const version = /^\d{4}-\d{2}-\d{2}$/.test(protocolVersion) ? protocolVersion : 'other';
      const key = `${era} ${version}`;
      let child = mcpChildren.get(key);
      if (!child) {
        const counter = mcpRequests.labels(era, version);
        child = () => counter.inc();
        mcpChildren.set(key, child);
      }
      child();
    },
    observeLastUsedWrite(kind) {
      lastUsedWrites.labels(kind).inc();
    },
    observeWebhookAttempt(outcome) {
      webhookAttempts.labels(outcome).inc();
    },
  };
}

function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

function tokenMatches(req: Request, token: string): boolean {
  const presented = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
  const a = Buffer.from(presented);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function metricsEndpoint(
  metrics: Metrics,
  options: { token: string | undefined; baseUrl: string; source?: () => Promise<string> },
): RequestHandler {
  const source = options.source ?? (() => metrics.registry.metrics());
  return (req, res, next) => {
    const allowed = options.token ? tokenMatches(req, options.token) : isLoopback(req.ip);
    if (!allowed) {
      sendProblem(res, options.baseUrl, 'not_found', {
        detail: `There is no endpoint at ${req.method} ${req.path}.`,
      });
      return;
    }
    source().then((body) => {
      res.set('Cache-Control', 'no-store').type(metrics.registry.contentType).send(body);
    }, next);
  };
}

/** Records every response: its route pattern (not the raw path, to keep label sets small). */
export function recordRequests(metrics: Metrics): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      // Routes served outside Express's router (the MCP endpoint) name themselves.
      const route = req.route
        ? `${req.baseUrl}${String(req.route.path)}`
        : ((res.locals.route as string | undefined) ?? '(unmatched)');
      metrics.observeRequest(
        req.method,
        route,
        res.statusCode,
        Number(process.hrtime.bigint() - started) / 1e9,
      );
    });
    next();
  };
}

import type { Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator, MemoryStore, rateLimit, type RateLimitInfo, type Store } from 'express-rate-limit';
import type { Principal } from '../identity/principal';
import { sendProblem } from './problem';

/**
 * Rate limits (README, "Limits, errors and the API description"), counted with express-rate-limit.
 * The library's own header modes cannot write the exact set the README documents (its draft-8
 * mode adds a `pk` parameter), so it counts and this module writes the headers.
 */
export interface RateLimitOptions {
  max: number;
  windowSeconds: number;
  baseUrl: string;
  /** Shared counters (Redis) or per-process memory (default). */
  store?: Store;
  /** The bucket a request counts against (default: rateLimitKey, per credential or address). */
  key?: (req: Request, res: Response) => string;
  /**
   * Answers a refused request, after the RateLimit headers and Retry-After are set (default:
   * the problem body). Pages answer with a page.
   */
  onLimited?: (req: Request, res: Response, state: RateLimitState) => void;
  /**
   * Which answers count once sent: all (default), only successful ones (below 400), or only
   * refusals (400 and above). Each request is counted when it arrives and given back if it
   * turns out not to count, so parallel requests cannot slip past the limit.
   */
  counts?: 'all' | 'successful' | 'refused';
  /**
   * With counts 'refused': over the limit, the request still goes on, and only a refusal (an
   * answer of 400 or above) is replaced by the limited answer. A valid request is never refused
   * for earlier refusals.
   */
  onlyRefusals?: boolean;
}

export interface RateLimitState {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

/** Exactly the documented header set; on 429 also Retry-After. */
export function rateLimitHeaders(state: RateLimitState, windowSeconds: number): Record<string, string> {
  return {
    'RateLimit-Policy': `"default";q=${state.limit};w=${windowSeconds}`,
    RateLimit: `"default";r=${state.remaining};t=${state.resetSeconds}`,
    'RateLimit-Limit': String(state.limit),
    'RateLimit-Remaining': String(state.remaining),
    'RateLimit-Reset': String(state.resetSeconds),
  };
}

type LimitedRequest = Request & { rateLimit?: RateLimitInfo };

function stateOf(info: RateLimitInfo, windowSeconds: number): RateLimitState {
  const resetMs = info.resetTime ? info.resetTime.getTime() - Date.now() : windowSeconds * 1000;
  return {
    limit: info.limit,
    remaining: Math.max(0, info.limit - info.used),
    resetSeconds: Math.max(0, Math.ceil(resetMs / 1000)),
  };
}

/**
 * The bucket a request counts against: the credential's identity once authenticated (a key
 * or token id, never the raw header, so reformatting a header opens no new bucket), else
 * the client address, with IPv6 grouped by /56 so one host cannot rotate through addresses.
 */
export function rateLimitKey(req: Request, res: Response): string {
  const principal = res.locals.principal as Principal | undefined;
  if (principal) return `${principal.credential.kind}:${principal.credential.id}`;
  return `ip:${addressKey(req.ip ?? req.socket.remoteAddress)}`;
}

/**
 * A client address as every limiter keys it: express-rate-limit's ipKeyGenerator, IPv4 as is
 * (IPv4-mapped IPv6 unwrapped), IPv6 by its /56, since one host usually holds a whole /64 or /56.
 */
export function addressKey(ip: string | undefined): string {
  return ip ? ipKeyGenerator(ip, 56) : 'unknown';
}

export function createRateLimiter(options: RateLimitOptions): RequestHandler {
  const { max, windowSeconds, baseUrl } = options;
  const limiter = rateLimit({
    windowMs: windowSeconds * 1000,
    limit: max,
    standardHeaders: false,
    legacyHeaders: false,
    store: options.store ?? new MemoryStore(),
    keyGenerator: options.key ?? rateLimitKey,
    skipFailedRequests: options.counts === 'successful',
    skipSuccessfulRequests: options.counts === 'refused',
    // The store itself degrades to memory when Redis is down (rate-limit-store.ts).
    passOnStoreError: true,
    // Keys go through addressKey (ipKeyGenerator), which the library's source check cannot see.
    validate: { trustProxy: false, xForwardedForHeader: false, ip: false, keyGeneratorIpFallback: false },
    handler: (req, res, next) => {
      const state = stateOf((req as LimitedRequest).rateLimit!, windowSeconds);
      if (options.onlyRefusals) {
        refuseOnlyRefusals(req, res, () => limited(req, res, state));
        next();
        return;
      }
      limited(req, res, state);
    },
  });
  const limited = (req: Request, res: Response, state: RateLimitState) => {
    res.set(rateLimitHeaders(state, windowSeconds));
    res.set('Retry-After', String(state.resetSeconds));
    if (options.onLimited) {
      options.onLimited(req, res, state);
      return;
    }
    sendProblem(res, baseUrl, 'rate_limited', {
      detail: `More than ${max} requests in ${windowSeconds} seconds.`,
      hint: `Wait ${state.resetSeconds} seconds (Retry-After) before retrying.`,
    });
  };
  return (req, res, next) => {
    void limiter(req, res, (error?: unknown) => {
      if (error) {
        next(error);
        return;
      }
      const info = (req as LimitedRequest).rateLimit;
      if (info) res.set(rateLimitHeaders(stateOf(info, windowSeconds), windowSeconds));
      next();
    });
  };
}

/**
 * Lets a request over a refusals-only limit go on, and swaps the refusal it would get (any
 * answer of 400 or above sent through res.send, which json and render use too) for the limited
 * answer. A success goes out as it is.
 */
function refuseOnlyRefusals(req: Request, res: Response, answerLimited: () => void): void {
  const send = res.send.bind(res);
  let swapped = false;
  res.send = ((body?: unknown) => {
    if (swapped || res.statusCode < 400 || res.statusCode === 429) return send(body);
    swapped = true;
    res.status(200);
    answerLimited();
    return res;
  }) as Response['send'];
}

import type { RequestHandler } from 'express';
import type { Logger } from '../logger';

/**
 * Paths that carry a capability in them (an LTI registration address's token): logged with the
 * token replaced, since whoever reads the log could otherwise use it.
 */
const SECRET_IN_PATH = /^(\/lti\/register\/)[^/]+/;
export const loggedPath = (path: string) => path.replace(SECRET_IN_PATH, '$1:token');

/**
 * One structured line per request, with its request id (the same id as the X-Request-Id
 * header and as every other log line of the request). No headers, no bodies, no query
 * strings: credentials cannot leak through here.
 */
export function requestLog(logger: Logger): RequestHandler {
  // The entry is built here from a few known fields, none of which can hold a credential, so
  // this line skips the logger's redaction: its wildcard paths ('*.password' and the like)
  // walk every field of every entry, and were the largest allocation of an MCP call.
  const lines = logger.child({}, { redact: [] });
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const entry = {
        requestId: res.locals.requestId,
        method: req.method,
        path: loggedPath(req.path),
        status: res.statusCode,
        ms: Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100,
        ...res.locals.logFields,
      };
      if (res.statusCode >= 500) lines.error(entry, 'request failed');
      else lines.info(entry, 'request');
    });
    next();
  };
}

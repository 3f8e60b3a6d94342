import type { RequestHandler } from 'express';
import type { Logger } from '../logger';

/**
 * One structured line per request, with its request id (the same id as the X-Request-Id
 * header and as every other log line of the request). No headers, no bodies, no query
 * strings: credentials cannot leak through here.
 */
export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const entry = {
        requestId: res.locals.requestId as string,
        method: req.method,
        path: req.path,
        status: res.statusCode,
        ms: Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100,
        tool: res.locals.tool as string | undefined,
      };
      if (res.statusCode >= 500) logger.error(entry, 'request failed');
      else logger.info(entry, 'request');
    });
    next();
  };
}

import type { RequestHandler, Response } from 'express';
import { NUL_MESSAGE, nulField } from '../domain/nul-text';
import { sendProblem } from './problem';

/** A request whose address (path or query) holds a NUL: 400, before any route reads it. */
export function refuseNulInAddress(baseUrl: string): RequestHandler {
  return (req, res, next) => {
    if (!/%00/i.test(req.url)) {
      next();
      return;
    }
    sendProblem(res, baseUrl, 'bad_request', {
      detail: `The address ${NUL_MESSAGE}.`,
      hint: 'Remove the %00 from the path or the query string.',
    });
  };
}

/**
 * Runs after a body parser: a body with a NUL in any field is answered by `refuse`, in the
 * format of its door (a page, a problem body, an OAuth error), naming the field.
 */
export function refuseNulInBody(refuse: (res: Response, field: string) => void): RequestHandler {
  return (req, res, next) => {
    const field = nulField(req.body);
    if (field === undefined) next();
    else refuse(res, field);
  };
}

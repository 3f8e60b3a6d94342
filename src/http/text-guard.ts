import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import type { RequestHandler, Response } from 'express';
import { NOT_UTF8_MESSAGE, NUL_MESSAGE, unstorableField } from '../domain/text-integrity';
import { sendProblem } from './problem';

/** Runs of percent-escapes (`%C3%A9`), each run one stretch of bytes to decode together. */
const ESCAPE_RUN = /(?:%[0-9A-Fa-f]{2})+/g;

/** Whether every run of percent-escapes in `text` decodes to UTF-8 (a run of ASCII always does). */
function escapesAreUtf8(text: string): boolean {
  if (!text.includes('%')) return true;
  for (const run of text.match(ESCAPE_RUN) ?? []) {
    if (!/%[89A-Fa-f]/.test(run)) continue;
    if (!isUtf8(Buffer.from(run.replace(/%/g, ''), 'hex'))) return false;
  }
  return true;
}

/**
 * A request whose address holds a NUL, or a query string whose escapes are not UTF-8: 400,
 * before any route reads it (the query parser would otherwise turn `%FF` into U+FFFD). A
 * malformed escape in the path is each router's own 400 (http/client-errors.ts).
 */
export function refuseBadTextInAddress(baseUrl: string): RequestHandler {
  return (req, res, next) => {
    if (/%00/i.test(req.url)) {
      sendProblem(res, baseUrl, 'bad_request', {
        detail: `The address ${NUL_MESSAGE}.`,
        hint: 'Remove the %00 from the path or the query string.',
      });
      return;
    }
    const query = req.url.indexOf('?');
    if (query >= 0 && !escapesAreUtf8(req.url.slice(query + 1))) {
      sendProblem(res, baseUrl, 'bad_request', {
        detail: `The query string ${NOT_UTF8_MESSAGE}.`,
        hint: 'Percent-encode the UTF-8 bytes of each character, e.g. %C3%A9 for é.',
      });
      return;
    }
    next();
  };
}

/**
 * Runs after a body parser: a body with a NUL or a lone surrogate in any field is answered by
 * `refuse`, in the format of its door (a page, a problem body, an OAuth error), naming the field.
 */
export function refuseBadTextInBody(
  refuse: (res: Response, field: string, message: string) => void,
): RequestHandler {
  return (req, res, next) => {
    const found = unstorableField(req.body);
    if (found === undefined) next();
    else refuse(res, found.field, found.message);
  };
}

function readableName(encoded: string): string {
  try {
    return decodeURIComponent(encoded.replace(/\+/g, ' '));
  } catch {
    return encoded;
  }
}

/** The error a body parser's `verify` throws for bytes that are not UTF-8 (read by client-errors.ts). */
function notUtf8(what: string): Error {
  return Object.assign(new Error(`${what} ${NOT_UTF8_MESSAGE}.`), { status: 400, type: 'entity.not.utf8' });
}

/**
 * The `verify` option of Express's JSON and form parsers: the raw body must be UTF-8, and in a
 * form every field's percent-escapes must decode to UTF-8, before the parser decodes them with
 * U+FFFD in place of what it could not read.
 */
export function verifyUtf8(req: IncomingMessage, _res: unknown, body: Buffer): void {
  if (!isUtf8(body)) throw notUtf8('The body');
  if (!/^application\/x-www-form-urlencoded/i.test(req.headers['content-type'] ?? '')) return;
  const text = body.toString('utf8');
  if (escapesAreUtf8(text)) return;
  for (const pair of text.split('&')) {
    if (escapesAreUtf8(pair)) continue;
    const name = pair.split('=')[0] ?? '';
    throw notUtf8(escapesAreUtf8(name) ? `The field ${readableName(name)}` : 'A field name');
  }
}

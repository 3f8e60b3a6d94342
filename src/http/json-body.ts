import { isUtf8 } from 'node:buffer';
import type { Readable, Transform } from 'node:stream';
import zlib from 'node:zlib';
import type { Request, RequestHandler } from 'express';
import { NOT_UTF8_MESSAGE } from '../domain/text-integrity';

/**
 * The MCP endpoint's body reader: `application/json` (or `+json`), UTF-8, identity, gzip,
 * deflate or br, at most `limit` bytes once decoded, parsed into `req.body`. Any other
 * Content-Type leaves `req.body` undefined for the handler to refuse.
 *
 * It fails with the error shapes of Express's own body-parser (`type`, `status`), which the
 * endpoint turns into JSON-RPC and problem answers. It exists because body-parser's generic
 * path (media-type matching, a charset decoder per request, its stream plumbing) cost ~4% of
 * an MCP call's throughput; everything else the service reads still goes through Express.
 */
export interface BodyError extends Error {
  type: string;
  status: number;
}

function bodyError(status: number, type: string, message: string): BodyError {
  return Object.assign(new Error(message), { status, type });
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]+)"?/i;

const DECODABLE = new Set(['gzip', 'x-gzip', 'deflate', 'br']);

function decoder(encoding: string): Transform | undefined {
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      return undefined;
  }
}

/** Empty or white space only (as trim() sees it), without copying a body that starts with JSON. */
function isBlank(text: string): boolean {
  if (text.length === 0) return true;
  const first = text.charCodeAt(0);
  return (first <= 0x20 || first >= 0xa0) && text.trim() === '';
}

/**
 * How deep a body's arrays and objects may nest. MCP messages nest a handful of levels (a
 * question's options sit at about eight); past this bound a body is refused before it is
 * parsed, since code after the parser (the SDK re-serialises the body) walks it recursively.
 */
export const MAX_JSON_DEPTH = 64;

/** Whether JSON text nests deeper than `max`: one pass over the text, brackets inside strings skipped. */
export function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code === 0x22) {
      // A string: to its closing quote, each backslash escaping the character after it.
      for (i += 1; i < text.length; i += 1) {
        const inner = text.charCodeAt(i);
        if (inner === 0x5c) i += 1;
        else if (inner === 0x22) break;
      }
    } else if (code === 0x5b || code === 0x7b) {
      depth += 1;
      if (depth > max) return true;
    } else if (code === 0x5d || code === 0x7d) {
      depth -= 1;
    }
  }
  return false;
}

/** The body's text into `req.body` (a leading byte-order mark dropped, as body-parser's UTF-8 decoder does). */
function parseInto(req: Request, body: Buffer): BodyError | undefined {
  // Decoding would put U+FFFD in place of what is not UTF-8: the text stored would not be the text sent.
  if (!isUtf8(body)) return bodyError(400, 'entity.not.utf8', `The body ${NOT_UTF8_MESSAGE}.`);
  let text = body.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (isBlank(text)) {
    req.body = {};
    return undefined;
  }
  if (text.length > MAX_JSON_DEPTH && nestedDeeperThan(text, MAX_JSON_DEPTH)) {
    return bodyError(400, 'entity.too.deep', `The JSON is nested deeper than ${MAX_JSON_DEPTH} levels.`);
  }
  try {
    req.body = JSON.parse(text) as unknown;
    return undefined;
  } catch (parseError) {
    return bodyError(400, 'entity.parse.failed', (parseError as Error).message);
  }
}

/** What the headers alone refuse: a charset other than UTF-8, or a declared size over the limit. */
function refusedByHeaders(
  contentType: string,
  encoding: string,
  declared: number | undefined,
  limit: number,
): BodyError | undefined {
  const charset = CHARSET.exec(contentType)?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    return bodyError(415, 'charset.unsupported', `unsupported charset "${charset}"`);
  }
  if (encoding === 'identity' && declared !== undefined && declared > limit) {
    return bodyError(413, 'entity.too.large', 'request entity too large');
  }
  if (encoding !== 'identity' && !DECODABLE.has(encoding)) {
    return bodyError(415, 'encoding.unsupported', `unsupported content encoding "${encoding}"`);
  }
  return undefined;
}

/**
 * The general path: reads the body as it streams in (through a decoder when it is encoded),
 * stops at `limit` decoded bytes, then parses it. `done` is called once, with the outcome.
 */
function readStreamed(
  req: Request,
  encoding: string,
  declared: number | undefined,
  limit: number,
  done: (error?: BodyError) => void,
): void {
  const source: Readable = encoding === 'identity' ? req : req.pipe(decoder(encoding)!);
  const chunks: Buffer[] = [];
  let size = 0;
  let settled = false;
  const finish = (error?: BodyError) => {
    if (settled) return;
    settled = true;
    source.removeAllListeners('data');
    if (error) {
      if (source !== req) source.destroy();
      req.unpipe();
      done(error);
      return;
    }
    if (encoding === 'identity' && declared !== undefined && size !== declared) {
      done(bodyError(400, 'request.size.invalid', 'request size did not match content length'));
      return;
    }
    // One chunk needs no copy.
    done(parseInto(req, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)));
  };
  source.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > limit) finish(bodyError(413, 'entity.too.large', 'request entity too large'));
    else chunks.push(chunk);
  });
  source.once('end', () => finish());
  source.once('error', (error: Error) => finish(bodyError(400, 'body.unreadable', error.message)));
  if (source !== req)
    req.once('error', (error: Error) => finish(bodyError(400, 'request.aborted', error.message)));
  req.once('close', () => {
    if (!req.complete) finish(bodyError(400, 'request.aborted', 'request aborted'));
  });
}

export function jsonBody({ limit }: { limit: number }): RequestHandler {
  return (req, _res, next) => {
    const contentType = req.headers['content-type'] ?? '';
    if (!JSON_TYPE.test(contentType)) {
      next();
      return;
    }
    const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
    const declared =
      req.headers['content-length'] === undefined ? undefined : Number(req.headers['content-length']);
    const refused = refusedByHeaders(contentType, encoding, declared, limit);
    if (refused) {
      next(refused);
      return;
    }
    // The usual case: the body came with the headers, and Node's HTTP parser has buffered all
    // of its declared bytes (a Content-Length body holds no more: the parser ends it there).
    // Taken at once, without 'data' events and the listeners of the general path.
    if (encoding === 'identity' && declared && req.readableLength === declared && !req.readableFlowing) {
      const body = req.read() as Buffer;
      // Flowing, the request still emits 'end' when the parser reports the message complete;
      // until it has, Node keeps the request (and its response) as the connection's current
      // message after the response is sent, i.e. until the connection's next request.
      req.resume();
      next(parseInto(req, body));
      return;
    }
    readStreamed(req, encoding, declared, limit, next);
  };
}

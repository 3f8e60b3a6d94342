import { problemCodeForStatus, type ProblemCode } from './problem';

/**
 * The one reading of errors that are the client's, not ours: a body the parsers could not read
 * (not JSON, too large, an unsupported charset or encoding, a corrupt gzip stream, a truncated
 * body) and a path Express's router could not percent-decode (`/q/%ff`). Every surface answers
 * these in its own format (a problem body, a JSON-RPC error, an OAuth error, a page) from this
 * one verdict, with its status, never as a failure of ours.
 */
export type ClientErrorKind =
  | 'not_json'
  | 'too_deep'
  | 'not_utf8'
  | 'too_large'
  | 'unsupported_encoding'
  | 'undecodable'
  | 'bad_address'
  | 'unreadable';

export interface ClientError {
  kind: ClientErrorKind;
  status: number;
  problem: ProblemCode;
  /** One sentence for the person or the program that sent the request. */
  reason: string;
}

export function clientErrorOf(
  error: unknown,
  options: { limitBytes?: number } = {},
): ClientError | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { status, statusCode, type, code } = error as {
    status?: unknown;
    statusCode?: unknown;
    type?: unknown;
    code?: unknown;
  };
  const httpStatus =
    typeof status === 'number' ? status : typeof statusCode === 'number' ? statusCode : undefined;
  if (httpStatus === undefined || httpStatus < 400 || httpStatus > 499) return undefined;
  if (type === 'entity.parse.failed') {
    return { kind: 'not_json', status: 400, problem: 'bad_request', reason: 'The body is not valid JSON.' };
  }
  if (type === 'entity.too.deep') {
    return { kind: 'too_deep', status: 400, problem: 'bad_request', reason: (error as Error).message };
  }
  if (type === 'entity.not.utf8') {
    return { kind: 'not_utf8', status: 400, problem: 'bad_request', reason: (error as Error).message };
  }
  if (type === 'entity.too.large' || type === 'parameters.too.many') {
    const limit = options.limitBytes ? ` than ${options.limitBytes} bytes` : ' than this endpoint accepts';
    return {
      kind: 'too_large',
      status: 413,
      problem: 'payload_too_large',
      reason: `The body is larger${limit}.`,
    };
  }
  if (type === 'charset.unsupported' || type === 'encoding.unsupported') {
    return {
      kind: 'unsupported_encoding',
      status: 415,
      problem: 'unsupported_media_type',
      reason: 'The body must be plain UTF-8 text, or gzip, deflate or br encoded.',
    };
  }
  if (error instanceof URIError) {
    return {
      kind: 'bad_address',
      status: 400,
      problem: 'bad_request',
      reason: 'The address holds a malformed percent-encoded character (such as "%ff").',
    };
  }
  if (String(code ?? '').startsWith('Z_')) {
    return {
      kind: 'undecodable',
      status: 400,
      problem: 'bad_request',
      reason: 'The body could not be decompressed: its Content-Encoding does not match what was sent.',
    };
  }
  return {
    kind: 'unreadable',
    status: httpStatus,
    problem: problemCodeForStatus(httpStatus),
    reason: 'The request could not be read: its address or body is malformed.',
  };
}

/**
 * Errors the framework has already judged to be the client's: Express's router marks a path
 * parameter it cannot percent-decode (`/q/%ff`) with status 400, and the body parsers mark a body
 * they cannot read (a corrupt gzip stream, a truncated body) with the 4xx that fits. Every error
 * handler answers these with that status and a plain reason, never as a failure of ours.
 */
export interface ClientError {
  status: number;
  /** One sentence for the person or the program that sent the request. */
  reason: string;
}

export function clientErrorOf(error: unknown): ClientError | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { status, statusCode } = error as { status?: unknown; statusCode?: unknown };
  const code = typeof status === 'number' ? status : typeof statusCode === 'number' ? statusCode : undefined;
  if (code === undefined || code < 400 || code > 499) return undefined;
  if (error instanceof URIError) {
    return {
      status: code,
      reason: 'The address holds a malformed percent-encoded character (such as "%ff").',
    };
  }
  const zlib = String((error as { code?: unknown }).code ?? '').startsWith('Z_');
  return {
    status: code,
    reason: zlib
      ? 'The body could not be decompressed: its Content-Encoding does not match what was sent.'
      : 'The request could not be read: its address or body is malformed.',
  };
}

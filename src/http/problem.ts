import type { Response } from 'express';

/**
 * RFC 9457 problem details: the one builder for every HTTP-level error the service sends.
 * The registry below is also the source of the error reference page, where each `type`
 * URI (`{base_url}/en/docs/api-reference#error-<code>`) lands.
 */
export const PROBLEMS = {
  bad_request: {
    status: 400,
    title: 'Bad Request',
    meaning: 'The request could not be read: fix the body or parameters as the detail says.',
  },
  unauthorized: {
    status: 401,
    title: 'Unauthorized',
    meaning: 'No valid credential: send Authorization: Bearer with an API key or OAuth access token.',
  },
  forbidden: {
    status: 403,
    title: 'Forbidden',
    meaning: 'The request came from an origin or host that this service does not accept.',
  },
  link_refused: {
    status: 403,
    title: 'Forbidden',
    meaning:
      'The signed link is not valid, has expired, or the credential that made it was revoked: ask get_quiz_links for a new one.',
  },
  scope_required: {
    status: 403,
    title: 'Forbidden',
    meaning:
      'The credential may not do that without another scope (such as quizzes:read to show respondents the answer key): connect again allowing it, or leave the setting out.',
  },
  not_found: {
    status: 404,
    title: 'Not Found',
    meaning: 'No such endpoint, or no such quiz or response at it.',
  },
  method_not_allowed: {
    status: 405,
    title: 'Method Not Allowed',
    meaning: 'The endpoint exists but not for this HTTP method; see the Allow header.',
  },
  not_acceptable: {
    status: 406,
    title: 'Not Acceptable',
    meaning: 'The Accept header rules out every format this endpoint answers in.',
  },
  payload_too_large: {
    status: 413,
    title: 'Content Too Large',
    meaning: 'The request body is larger than the service accepts.',
  },
  unsupported_media_type: {
    status: 415,
    title: 'Unsupported Media Type',
    meaning: 'The body must be sent as Content-Type: application/json.',
  },
  conflict: {
    status: 409,
    title: 'Conflict',
    meaning:
      'The request does not fit the current state (a limit reached, a step not yet taken); see detail.',
  },
  not_accepting_responses: {
    status: 409,
    title: 'Conflict',
    meaning: 'The quiz exists but its owner has closed it to new responses; nothing was stored.',
  },
  validation_failed: {
    status: 422,
    title: 'Unprocessable Content',
    meaning: 'The body is well-formed JSON but some fields are not valid; see `errors`.',
  },
  rate_limited: {
    status: 429,
    title: 'Too Many Requests',
    meaning: 'Too many requests in the current window. Wait Retry-After seconds and retry.',
  },
  internal_error: {
    status: 500,
    title: 'Internal Server Error',
    meaning: 'Something failed on our side. Retry later; quote the request id if it persists.',
  },
  service_unavailable: {
    status: 503,
    title: 'Service Unavailable',
    meaning: 'A dependency (such as the database) is unreachable. Retry shortly.',
  },
} as const satisfies Record<string, { status: number; title: string; meaning: string }>;

export type ProblemCode = keyof typeof PROBLEMS;

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  code: ProblemCode;
  detail?: string;
  hint?: string;
  [extension: string]: unknown;
}

export function problemType(baseUrl: string, code: string): string {
  return `${baseUrl}/en/docs/api-reference#error-${code}`;
}

export function problem(
  baseUrl: string,
  code: ProblemCode,
  details: { detail?: string; hint?: string; [extension: string]: unknown } = {},
): ProblemBody {
  const { status, title } = PROBLEMS[code];
  return { type: problemType(baseUrl, code), title, status, code, ...details };
}

/** The problem code of an HTTP status, for errors that arrive with only a status. */
export function problemCodeForStatus(status: number): ProblemCode {
  const found = (Object.keys(PROBLEMS) as ProblemCode[]).find((code) => PROBLEMS[code].status === status);
  return found ?? (status >= 500 ? 'internal_error' : 'bad_request');
}

export function sendProblem(
  res: Response,
  baseUrl: string,
  code: ProblemCode,
  details: { detail?: string; hint?: string; [extension: string]: unknown } = {},
): void {
  const body = problem(baseUrl, code, details);
  res.status(body.status).type('application/problem+json').send(JSON.stringify(body));
}

import type { Response } from 'express';
import { ConfirmationRequired, type DomainError, type DomainErrorCode } from '../domain/errors';
import { PROBLEMS, sendProblem, type ProblemCode } from './problem';

/**
 * Every domain error code, answered once. HTTP routes send the problem code (and with it the
 * status and title of the problem registry); HTML pages use the same status; MCP tools answer
 * `isError` with `toolErrorText`. A new domain code does not compile until it has a row here.
 */
export const DOMAIN_ERROR_ANSWERS = {
  invalid_input: { problem: 'validation_failed' },
  // Credentials typed into a form: the form comes back with the error beside the field. (A bad
  // bearer credential never reaches the domain: the authentication layer answers it with 401.)
  invalid_credentials: { problem: 'validation_failed' },
  ambiguous_reference: { problem: 'validation_failed' },
  quiz_not_found: { problem: 'not_found' },
  response_not_found: { problem: 'not_found' },
  answer_not_found: { problem: 'not_found' },
  key_not_found: { problem: 'not_found' },
  user_not_found: { problem: 'not_found' },
  webhook_not_found: { problem: 'not_found' },
  confirmation_required: { problem: 'conflict' },
  invalid_state: { problem: 'conflict' },
  key_limit_reached: { problem: 'conflict' },
  user_exists: { problem: 'conflict' },
  webhook_limit_reached: { problem: 'conflict' },
  not_accepting_responses: { problem: 'not_accepting_responses' },
  attempt_refused: { problem: 'conflict' },
  scope_required: { problem: 'scope_required' },
} as const satisfies Record<DomainErrorCode, { problem: ProblemCode }>;

export function domainErrorStatus(error: DomainError): number {
  return PROBLEMS[DOMAIN_ERROR_ANSWERS[error.code].problem].status;
}

/** A domain error as problem+json; `errors` lists the field issues when there are any. */
export function sendDomainProblem(
  res: Response,
  baseUrl: string,
  error: DomainError,
  details: { detail?: string; hint?: string } = {},
): void {
  const errors = error.issues.map((issue) => ({ field: issue.field, message: issue.message }));
  sendProblem(res, baseUrl, DOMAIN_ERROR_ANSWERS[error.code].problem, {
    detail: details.detail ?? error.message,
    ...(details.hint ? { hint: details.hint } : {}),
    ...(errors.length > 0 ? { errors } : {}),
  });
}

/**
 * A domain error as a tool's `isError` text. Field issues are listed one per line under one
 * lead sentence, the same whether the tool's schema or a domain rule found them; every other
 * message is already written for the assistant (what happened, what to call next).
 */
export function toolErrorText(error: DomainError, toolName: string): string {
  if (error instanceof ConfirmationRequired) {
    const { argument, lead, after = '' } = error.confirm;
    return `${error.situation} ${lead}, call ${toolName} again with ${argument}: true${after}.`;
  }
  if (error.code !== 'invalid_input') return error.message;
  const lines = error.issues.map((issue) => `- ${issue.field}: ${issue.message}`);
  return `Invalid arguments for ${toolName}; nothing was changed. Fix these and call it again:\n${lines.join('\n')}`;
}

// Every refusal of the LTI core is an LtiError with a code from this one set, so a caller can
// log, count and answer it without reading messages, and a message a person can act on.
export const LTI_ERROR_CODES = [
  'bad_login_request',
  'malformed_token',
  'bad_signature',
  'keys_unavailable',
  'wrong_issuer',
  'wrong_audience',
  'expired',
  'not_yet_valid',
  'replayed_nonce',
  'wrong_nonce',
  'unknown_deployment',
  'wrong_message_type',
  'wrong_version',
  'missing_claim',
  'invalid_claim',
  'anonymous_launch',
] as const;

export type LtiErrorCode = (typeof LTI_ERROR_CODES)[number];

export class LtiError extends Error {
  override readonly name = 'LtiError';

  constructor(
    readonly code: LtiErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

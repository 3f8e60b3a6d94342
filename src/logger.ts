import pino, { type Logger } from 'pino';

export type { Logger };

/**
 * Structured JSON logs. Credentials never reach a log line: headers that carry them and
 * fields that could hold secrets are redacted wherever they appear.
 */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.key',
  '*.token',
  '*.access_token',
  '*.refresh_token',
  '*.code',
  '*.code_verifier',
  '*.client_secret',
  '*.secret',
  '*.secrets',
  '*["webhook-signature"]',
  // An approval's state is the key to it while it lives (mcp/approvals/).
  '*.requestState',
];

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    { level, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, base: { service: 'quiz-service' } },
    destination,
  );
}

import type { AuthInfo } from '@modelcontextprotocol/server';
import type { Principal } from '../identity/principal';

/**
 * What the layers of one request hand each other, declared once. Express keeps these on
 * `res.locals`; `req.auth` is where the MCP SDK's Node adapter reads an authenticated caller.
 */
declare global {
  // Express's own declaration merging point.
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      /** Set by request-id: the X-Request-Id of this request, in every log line. */
      requestId?: string;
      /** Set by identifyBearer for a valid credential. */
      principal?: Principal;
      /** Set by identifyBearer when a credential was sent but not accepted. */
      credentialSent?: boolean;
      /** The route's name in metrics (for routes served outside Express's router). */
      route?: string;
      /** The MCP tool a tools/call named, for the access log. */
      tool?: string;
      /** The MCP protocol era and version of the request, for the access log and metrics. */
      mcpEra?: 'legacy' | 'modern';
      mcpProtocolVersion?: string;
    }
    interface Request {
      /** The caller as the MCP SDK's Node adapter forwards it to the server factory. */
      auth?: AuthInfo;
    }
  }
}

export {};

import type { Principal } from '../identity/principal';

/**
 * What the layers of one request hand each other, declared once. Express keeps these on
 * `res.locals`. A surface's own context stays in the surface (the MCP endpoint's is
 * mcp/resolved-request.ts).
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
      /** What a surface adds to its access-log line (the MCP endpoint: tool, era, protocol version). */
      logFields?: Record<string, string>;
    }
  }
}

export {};

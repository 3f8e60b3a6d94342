import type { Repositories } from '../db/repositories';
import type { Logger } from '../logger';

/** What domain functions need: the repositories and the public origin (for public URLs). */
export interface DomainDeps {
  repos: Repositories;
  baseUrl: string;
  /** Milliseconds since the epoch; tests move it instead of waiting (time limits, windows). */
  now?: () => number;
  /** Signs the quizzes' signed links (links/signed-links.ts); the app sets it from SESSION_SECRET. */
  links?: LinkSigner;
  /** Quotas and the image_url fetch's rules (images/resolve-images.ts); the defaults when absent. */
  images?: ImageSettings;
  /** Where the domain tells the operator what the client is not told (an import's reader failing). */
  logger?: Pick<Logger, 'warn'>;
  /** What approvals in an MCP client need (mcp/approvals/); without it a tool gives the web's link instead. */
  approvals?: ApprovalDeps;
  /** What the tool's LTI signing keys need (lti/tool-keys.ts); without it the service signs nothing for LTI. */
  lti?: LtiDeps;
}

/** What the tool's LTI signing keys need of the server: the key that seals them (lti/tool-keys.ts). */
export interface LtiDeps {
  sealingKey: Buffer;
}

/** The requestState's HMAC key (derived from the server's secret) and marks every instance shares. */
export interface ApprovalDeps {
  key: Uint8Array;
  marks: SharedMarks;
}

/** Short-lived marks in Redis or the database, seen alike by every instance. */
export interface SharedMarks {
  /** Sets the mark for `ttlMs` unless a live one holds the key: true when this call set it. */
  claim(key: string, ttlMs: number): Promise<boolean>;
  /** Sets or renews the mark. */
  put(key: string, ttlMs: number): Promise<void>;
  has(key: string): Promise<boolean>;
}

export interface ImageSettings {
  quizQuotaBytes: number;
  accountQuotaBytes: number;
  allowLoopback: boolean;
  fetchTimeoutMs: number;
  /** Tests answer DNS themselves. */
  resolve?: (hostname: string) => Promise<Array<{ address: string; family: number }>>;
}

/** HMAC with a key of its own, derived from the server's secret (links/signed-links.ts builds it). */
export interface LinkSigner {
  mac(payload: string): string;
}

/** The domain's clock: the injected one, else the system's. */
export const nowOf = (deps: Pick<DomainDeps, 'now'>): number => (deps.now ? deps.now() : Date.now());

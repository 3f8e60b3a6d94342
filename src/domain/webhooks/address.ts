import { hostOf, vetHost, type Resolver } from '../outbound-address';

/**
 * Where a webhook may go: HTTPS to public addresses only (the rule of ../outbound-address.ts,
 * shared with every outbound request). The name is resolved and every address checked, at save
 * time and again before each delivery, and the delivery connects to the address that was
 * checked (send.ts), so a DNS answer that changes in between cannot point it elsewhere.
 */
export type { Resolver } from '../outbound-address';

export interface TargetOptions {
  /** WEBHOOKS_ALLOW_LOOPBACK: loopback addresses, over http or https (development and tests). */
  allowLoopback: boolean;
  resolve?: Resolver;
}

export type CheckedTarget =
  { ok: true; url: URL; address: string; family: 4 | 6 } | { ok: false; reason: string };

/** Reads the URL's syntax only: what the owner must fix before anything is resolved. */
export function urlProblem(raw: string, allowLoopback: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'Enter a full URL starting with https://';
  }
  if (url.protocol !== 'https:' && !(allowLoopback && url.protocol === 'http:')) {
    return 'Use an https:// URL: webhooks are only sent over HTTPS.';
  }
  if (url.username || url.password) return 'Leave the user name and password out of the URL.';
  if (raw.length > 2000) return 'Use a URL of at most 2000 characters.';
  return null;
}

/** Resolves the URL's host and checks every address it names; the first one is used. */
export async function checkTarget(raw: string, options: TargetOptions): Promise<CheckedTarget> {
  const problem = urlProblem(raw, options.allowLoopback);
  if (problem) return { ok: false, reason: problem };
  const url = new URL(raw);
  const host = hostOf(url);
  const vetted = await vetHost(host, options);
  if (!vetted.ok) {
    return {
      ok: false,
      reason:
        vetted.problem === 'does_not_resolve'
          ? `The host name ${host} does not resolve.`
          : `${host} resolves to ${vetted.address}, which is not a public address: webhooks only go to the public internet.`,
    };
  }
  // Plain http only ever reaches loopback, and only with the development setting.
  if (url.protocol !== 'https:' && !vetted.loopback) {
    return { ok: false, reason: 'Use an https:// URL: webhooks are only sent over HTTPS.' };
  }
  return { ok: true, url, address: vetted.address, family: vetted.family };
}

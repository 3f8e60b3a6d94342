import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Where a webhook may go. Only HTTPS to public addresses: a receiver URL is typed by an owner,
 * and must not become a way into this service's own network (SSRF). The name is resolved and
 * every address checked, at save time and again before each delivery, and the delivery
 * connects to the address that was checked (send.ts), so a DNS answer that changes in between
 * cannot point it elsewhere.
 */
export type Resolver = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

export const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96], // NAT64
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** An IPv4-mapped IPv6 address as its IPv4 address; any other address as it is. */
function unmapped(address: string): { address: string; type: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return { address: mapped[1]!, type: 'ipv4' };
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hex) {
    const [high, low] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
    return { address: `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`, type: 'ipv4' };
  }
  return { address, type: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

export function isLoopback(address: string): boolean {
  const { address: plain, type } = unmapped(address);
  return LOOPBACK.check(plain, type);
}

export function isPublicAddress(address: string): boolean {
  const { address: plain, type } = unmapped(address);
  return !NOT_PUBLIC.check(plain, type);
}

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
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: Array<{ address: string; family: number }>;
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await (options.resolve ?? systemResolver)(host);
    } catch {
      return { ok: false, reason: `The host name ${host} does not resolve.` };
    }
  }
  if (addresses.length === 0) return { ok: false, reason: `The host name ${host} does not resolve.` };
  for (const { address } of addresses) {
    if (options.allowLoopback && isLoopback(address)) continue;
    if (!isPublicAddress(address)) {
      return {
        ok: false,
        reason: `${host} resolves to ${address}, which is not a public address: webhooks only go to the public internet.`,
      };
    }
    if (url.protocol !== 'https:') {
      return { ok: false, reason: 'Use an https:// URL: webhooks are only sent over HTTPS.' };
    }
  }
  const first = addresses[0]!;
  return { ok: true, url, address: first.address, family: first.family === 6 ? 6 : 4 };
}

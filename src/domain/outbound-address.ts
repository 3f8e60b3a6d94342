import { lookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * The one rule for every request this service makes to a URL someone else chose (webhook
 * receivers, OAuth Client ID Metadata Documents): only globally routable unicast addresses, so
 * such a URL never becomes a way into this service's own network (SSRF). It is an allow-list:
 * IPv6 must be global unicast (2000::/3), which leaves out every embedding of an IPv4 address
 * outside it (IPv4-compatible ::a.b.c.d, mapped ::ffff:0:0/96, translated ::ffff:0:0:0/96, NAT64
 * 64:ff9b::/96 and 64:ff9b:1::/48), site-local fec0::/10, unique-local and link-local; inside it
 * the ranges that tunnel to or stand for other addresses are refused too. Every address a name
 * resolves to must pass, and the connection then goes to the address that was checked
 * (`pinnedLookup`), so a second DNS answer cannot swap in another.
 */
export type Resolver = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

export const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

/** IANA's IPv4 special-purpose ranges (RFC 6890 and its updates) that are not globally reachable. */
const IPV4_NOT_GLOBAL: Array<[string, number]> = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, where cloud metadata services answer
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];

/** Inside 2000::/3: ranges that tunnel to, translate or document other addresses. */
const IPV6_REFUSED_INSIDE_GLOBAL: Array<[string, number]> = [
  ['2001::', 23], // IETF protocol assignments, Teredo 2001::/32 included
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: 2002:a00:1::1 reaches 10.0.0.1
  ['3fff::', 20], // documentation
];

const ipv4Refused = new BlockList();
for (const [network, prefix] of IPV4_NOT_GLOBAL) ipv4Refused.addSubnet(network, prefix, 'ipv4');
const ipv6GlobalUnicast = new BlockList();
ipv6GlobalUnicast.addSubnet('2000::', 3, 'ipv6');
const ipv6Refused = new BlockList();
for (const [network, prefix] of IPV6_REFUSED_INSIDE_GLOBAL) ipv6Refused.addSubnet(network, prefix, 'ipv6');

/** Whether an outbound request may connect to this IP address (anything that is not one: no). */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !ipv4Refused.check(address, 'ipv4');
  if (family === 6) return ipv6GlobalUnicast.check(address, 'ipv6') && !ipv6Refused.check(address, 'ipv6');
  return false;
}

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** 127.0.0.0/8 and ::1: allowed only where a development or test setting says so. */
export function isLoopbackAddress(address: string): boolean {
  const family = isIP(address);
  return family !== 0 && loopback.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export interface VetOptions {
  /** Loopback addresses pass too (development and tests only). */
  allowLoopback: boolean;
  resolve?: Resolver | undefined;
}

export interface VettedAddress {
  address: string;
  family: 4 | 6;
  loopback: boolean;
}

export type VetResult =
  | ({ ok: true } & VettedAddress)
  | { ok: false; problem: 'does_not_resolve' }
  | { ok: false; problem: 'not_public'; address: string };

/** A URL's host without the brackets of an IPv6 literal. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * Resolves a host (an IP literal is taken as it is) and checks every address it names; the
 * first is the one to connect to, through `pinnedLookup`.
 */
export async function vetHost(host: string, options: VetOptions): Promise<VetResult> {
  let addresses: Array<{ address: string; family: number }>;
  const literal = isIP(host);
  if (literal) {
    addresses = [{ address: host, family: literal }];
  } else {
    try {
      addresses = await (options.resolve ?? systemResolver)(host);
    } catch {
      return { ok: false, problem: 'does_not_resolve' };
    }
  }
  if (addresses.length === 0) return { ok: false, problem: 'does_not_resolve' };
  for (const { address } of addresses) {
    if (options.allowLoopback && isLoopbackAddress(address)) continue;
    if (!isPublicAddress(address)) return { ok: false, problem: 'not_public', address };
  }
  const first = addresses[0]!;
  return {
    ok: true,
    address: first.address,
    family: isIP(first.address) === 6 ? 6 : 4,
    loopback: isLoopbackAddress(first.address),
  };
}

/** A `lookup` for http(s).request that answers the vetted address whatever DNS says now; TLS still checks the name. */
export function pinnedLookup(target: { address: string; family: 4 | 6 }): LookupFunction {
  return (_hostname, lookupOptions, callback) => {
    if ((lookupOptions as { all?: boolean }).all) {
      (callback as unknown as (e: null, all: Array<{ address: string; family: number }>) => void)(null, [
        { address: target.address, family: target.family },
      ]);
    } else {
      callback(null, target.address, target.family);
    }
  };
}

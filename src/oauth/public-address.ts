import net from 'node:net';

/**
 * Which IP addresses the server may connect to when it fetches a Client ID Metadata Document
 * (an attacker chooses the URL: SSRF). Only globally routable unicast addresses pass: not
 * private (RFC 1918), loopback, link-local (169.254.0.0/16, where cloud metadata services
 * answer), CGNAT (RFC 6598), unique-local (RFC 4193), unspecified, multicast, reserved or
 * documentation ranges (IANA special-purpose registries, RFC 6890).
 */
const IPV4_BLOCKED: Array<[string, number]> = [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, incl. 169.254.169.254 (cloud metadata)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, incl. broadcast
];

/**
 * IPv6: only global unicast (2000::/3) passes, which already leaves out ::, ::1, IPv4-mapped
 * (::ffff:0:0/96, which would reach IPv4 hosts), NAT64 (64:ff9b::/96), unique-local
 * (fc00::/7), link-local (fe80::/10) and multicast (ff00::/8). Inside it, these are refused
 * too: they embed or tunnel to addresses that may be internal.
 */
const IPV6_BLOCKED_INSIDE_GLOBAL: Array<[string, number]> = [
  ['2001::', 23], // IETF protocol assignments, incl. Teredo 2001::/32
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4
  ['3fff::', 20], // documentation
];

const ipv4Blocked = new net.BlockList();
for (const [address, prefix] of IPV4_BLOCKED) ipv4Blocked.addSubnet(address, prefix, 'ipv4');
const ipv6Global = new net.BlockList();
ipv6Global.addSubnet('2000::', 3, 'ipv6');
const ipv6Blocked = new net.BlockList();
for (const [address, prefix] of IPV6_BLOCKED_INSIDE_GLOBAL) ipv6Blocked.addSubnet(address, prefix, 'ipv6');

export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return !ipv4Blocked.check(address, 'ipv4');
  if (family === 6) return ipv6Global.check(address, 'ipv6') && !ipv6Blocked.check(address, 'ipv6');
  return false;
}

const loopback = new net.BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

export function isLoopbackAddress(address: string): boolean {
  const family = net.isIP(address);
  return family !== 0 && loopback.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

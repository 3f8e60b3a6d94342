import os from 'node:os';
import type { Config } from '../config';

/**
 * Whether people on other machines can open links made from the base URL. A loopback name
 * (`localhost`, 127.x, ::1) in a link sends a student's phone to itself, so the start-up banner
 * and the share panel say what to set instead.
 */
export function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    /^127\./.test(host) ||
    host === '::1' ||
    host === '0.0.0.0'
  );
}

/**
 * This machine's address on its local network as others reach it: the first IPv4 address of
 * an interface that is up and not loopback or link-local. Undefined on a machine without one.
 */
export function lanAddress(
  interfaces: NodeJS.Dict<os.NetworkInterfaceInfo[]> = os.networkInterfaces(),
): string | undefined {
  for (const list of Object.values(interfaces)) {
    for (const entry of list ?? []) {
      if (entry.family === 'IPv4' && !entry.internal && !entry.address.startsWith('169.254.')) {
        return entry.address;
      }
    }
  }
  return undefined;
}

export interface ClassReachHint {
  /** The loopback origin links carry now. */
  baseUrl: string;
  /** The environment to start with so a class on this network can open them. */
  settings: string;
}

/**
 * What to set so students on this network can open the links, when the base URL is loopback;
 * undefined when it is not (a LAN address, a tunnel or a public host already reach the class).
 */
export function classReachHint(
  config: Pick<Config, 'baseUrl' | 'port'>,
  lan: { address: string | undefined } = { address: lanAddress() },
): ClassReachHint | undefined {
  if (!isLoopbackUrl(config.baseUrl)) return undefined;
  const host = lan.address ?? '<this machine’s address>';
  return {
    baseUrl: config.baseUrl,
    // PORT is repeated when it is not the default, since the new command line replaces the old.
    settings: `${config.port === 3000 ? '' : `PORT=${config.port} `}HOST=0.0.0.0 BASE_URL=http://${host}:${config.port}`,
  };
}

/**
 * A listening address no client can connect to: an IPv4 multicast address (224.0.0.0/4) or the
 * broadcast address binds on Linux, so `serve --host 224.0.0.1` printed a readiness line for an
 * emulator nobody could reach. IPv6 multicast is refused by the system, but late and vaguely.
 * Names are left to the system: only a written address is judged here.
 */
import { isIPv4, isIPv6 } from 'node:net';
import { UsageError } from './usage-error.js';

/** Why `host` cannot be listened on for clients, or undefined when it may be. */
function unreachableHost(host: string): string | undefined {
  const lower = host.toLowerCase();
  // ::ffff:224.0.0.1 is the IPv4 address written as IPv6.
  const v4 = isIPv6(lower) && lower.startsWith('::ffff:') && isIPv4(lower.slice(7)) ? lower.slice(7) : lower;
  if (isIPv4(v4)) {
    if (v4 === '255.255.255.255') return 'is the broadcast address';
    const first = Number(v4.split('.')[0]);
    if (first >= 224 && first <= 239) return 'is a multicast address (224.0.0.0/4)';
    return undefined;
  }
  if (isIPv6(lower.split('%')[0] ?? '') && lower.startsWith('ff')) return 'is a multicast address (ff00::/8)';
  return undefined;
}

/** Throws a UsageError naming `option` when `host` is a multicast or broadcast address. */
export function checkListenHost(host: string, option: string): void {
  const problem = unreachableHost(host.trim());
  if (problem !== undefined) {
    throw new UsageError(`${option} ${host} ${problem}: no client can connect to it`, 'choose an address of this machine (127.0.0.1 by default; 0.0.0.0 for every interface)');
  }
}

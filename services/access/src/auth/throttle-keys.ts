import { isIPv6 } from 'node:net';
import { normalizeIp } from '../forward-auth/whitelist';

/** The account's counter: one per e-mail however it is typed (the lookup ignores case too). */
export const accountKey = (email: string) => `acct:${email.trim().toLowerCase()}`;

/**
 * The address's counter. IPv4 (also IPv4-mapped IPv6) per address; IPv6 per /64, the block one
 * subscriber gets: counting single addresses there would give an attacker 2^64 fresh counters.
 */
export function addressKey(ip: string): string {
  const addr = normalizeIp(ip.trim());
  return `ip:${isIPv6(addr) ? `${ipv6Prefix64(addr)}::/64` : addr}`;
}

export const throttleKeys = (email: string, ip: string) => [accountKey(email), addressKey(ip)];

/** The first four groups of an IPv6 address, expanded and lower case (`2001:db8:0:7`). */
function ipv6Prefix64(addr: string): string {
  const noZone = addr.split('%')[0]!.toLowerCase();
  const [head = '', tail] = noZone.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  // An embedded IPv4 tail (::ffff:1.2.3.4 and the like) fills the last two groups, never the first four.
  const tailLength = tailGroups.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0);
  const groups =
    tail === undefined
      ? headGroups
      : [
          ...headGroups,
          ...Array<string>(Math.max(0, 8 - headGroups.length - tailLength)).fill('0'),
          ...tailGroups,
        ];
  return groups
    .slice(0, 4)
    .map((g) => (g.includes('.') ? '0' : g.replace(/^0+(?=.)/, '')))
    .join(':');
}

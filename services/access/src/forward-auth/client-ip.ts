import { BlockList, isIP, isIPv4, isIPv6 } from 'node:net';
import { normalizeIp } from './whitelist';

/**
 * The client address as the trusted proxies report it (Fastify's trustProxy rule): starting at
 * the TCP peer and walking X-Forwarded-For from the right, the first address that is not a
 * trusted proxy; or, when given, a trusted peer's X-Real-IP. A client talking to us directly cannot name an address at all. Trust checks are
 * memoised because the peers are a handful of proxies and each check costs a SocketAddress.
 */
export function clientIpResolver(
  trustedRanges: string[],
): (peer: string, xff: string | undefined, realIp?: string) => string {
  const trusted = new BlockList();
  for (const range of trustedRanges) {
    const [net = '', bits] = range.trim().split('/');
    const type = isIPv4(net) ? 'ipv4' : isIPv6(net) ? 'ipv6' : null;
    if (!type) throw new Error(`TRUSTED_PROXIES: not an address or CIDR range: ${range}`);
    trusted.addSubnet(net, bits === undefined ? (type === 'ipv4' ? 32 : 128) : Number(bits), type);
  }
  const memo = new Map<string, boolean>();
  const isTrusted = (ip: string): boolean => {
    let known = memo.get(ip);
    if (known === undefined) {
      known = isIPv4(ip) ? trusted.check(ip, 'ipv4') : isIPv6(ip) ? trusted.check(ip, 'ipv6') : false;
      if (memo.size >= 10_000) memo.clear();
      memo.set(ip, known);
    }
    return known;
  };

  return (peer, xff, realIp) => {
    let ip = normalizeIp(peer);
    if (!isTrusted(ip)) return ip;
    // X-Real-IP is one address the proxy wrote itself (nginx `$remote_addr`); only the caller
    // passes it where the proxy form guarantees that (validate.handler.ts), and only when it is one.
    if (realIp !== undefined) {
      const real = realIp.trim();
      if (isIP(real) !== 0) return normalizeIp(real);
    }
    if (!xff) return ip;
    // One hop (a single proxy in front) is the common case: no split.
    if (xff.indexOf(',') < 0) {
      const hop = normalizeIp(xff.trim());
      return hop || ip;
    }
    const hops = xff.split(',');
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = normalizeIp(hops[i]!.trim());
      if (!hop) continue;
      ip = hop;
      if (!isTrusted(ip)) return ip;
    }
    return ip;
  };
}

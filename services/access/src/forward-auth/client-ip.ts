import { isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';
import { parseCidr } from '@aplt/config';
import proxyAddr from 'proxy-addr';
import { normalizeIp } from './whitelist';

/**
 * The client address as the trusted proxies report it, by the same rule and library as every
 * Fastify app's request.ip (`proxy-addr`): starting at the TCP peer and walking X-Forwarded-For
 * from the right, the first address that is not a trusted proxy; or, when given, a trusted peer's
 * X-Real-IP. A client talking to us directly cannot name an address at all. Trust checks are
 * memoised: the peers are a handful of proxies, and each check parses the address.
 */
export function clientIpResolver(
  trustedRanges: string[],
): (peer: string, xff: string | undefined, realIp?: string) => string {
  const bad = trustedRanges.find((range) => !parseCidr(range));
  if (bad !== undefined) throw new Error(`TRUSTED_PROXIES: not an address or CIDR range: ${bad}`);
  const trust = proxyAddr.compile(trustedRanges.map((range) => range.trim()));
  const memo = new Map<string, boolean>();
  const isTrusted = (ip: string): boolean => {
    let known = memo.get(ip);
    if (known === undefined) {
      known = trust(ip, 0);
      if (memo.size >= 10_000) memo.clear();
      memo.set(ip, known);
    }
    return known;
  };

  return (peer, xff, realIp) => {
    const ip = normalizeIp(peer);
    if (!isTrusted(ip)) return ip;
    // X-Real-IP is one address the proxy wrote itself (nginx `$remote_addr`); only the caller
    // passes it where the proxy form guarantees that (validate.handler.ts), and only when it is one.
    if (realIp !== undefined) {
      const real = realIp.trim();
      if (isIP(real) !== 0) return normalizeIp(real);
    }
    if (!xff) return ip;
    const forwarded = { socket: { remoteAddress: ip }, headers: { 'x-forwarded-for': xff } };
    return normalizeIp(proxyAddr(forwarded as unknown as IncomingMessage, isTrusted));
  };
}

import { lookup as dnsLookup } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** Addresses a webshop callback must never reach: loopback, private, link-local, CGNAT, multicast, reserved. */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return blocked.check(mapped[1] as string, 'ipv4');
    return blocked.check(address, 'ipv6');
  }
  return true;
}

export class CallbackTargetRefused extends Error {}

/** Syntax and scheme of a callback address (before any DNS). */
export function parseCallbackUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CallbackTargetRefused('callback_url is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new CallbackTargetRefused('callback_url must use http or https');
  if (url.username || url.password)
    throw new CallbackTargetRefused('callback_url must not carry credentials');
  return url;
}

/**
 * A DNS lookup for the HTTP client that refuses blocked addresses. Checking inside the lookup
 * (not before it) means the address we connect to is the address we checked: a DNS answer that
 * changes between check and connect (rebinding) cannot slip through.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as Array<{ address: string; family: number }>;
      const ok = list.filter((a) => allowPrivate || !isBlockedAddress(a.address));
      if (ok.length === 0) {
        return callback(
          new CallbackTargetRefused(`callback target ${hostname} resolves to a refused address`),
          '',
          0,
        );
      }
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: typeof ok) => void)(null, ok);
      const first = ok[0] as { address: string; family: number };
      callback(null, first.address, first.family);
    });
  };
}

/** Check at creation time, so the webshop hears at once that its address will never be called. */
export async function assertCallbackTarget(raw: string, allowPrivate: boolean): Promise<URL> {
  const url = parseCallbackUrl(raw);
  if (allowPrivate) return url;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    if (isBlockedAddress(host))
      throw new CallbackTargetRefused('callback_url points to a private or loopback address');
    return url;
  }
  await new Promise<void>((resolve, reject) => {
    guardedLookup(false)(host, {}, (err) => (err ? reject(err) : resolve()));
  }).catch((err: unknown) => {
    if (err instanceof CallbackTargetRefused) throw err;
    throw new CallbackTargetRefused(`callback_url host ${host} does not resolve`);
  });
  return url;
}

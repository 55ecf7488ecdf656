import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Network = [Address, number];

/** Why an address may or may not receive a callback. */
export interface AddressVerdict {
  allowed: boolean;
  /** ipaddr.js's range name (`unicast`, `loopback`, `6to4`, ...) or `invalid`. */
  range: string;
  /** For IPv6 forms that carry an IPv4 address: the form, and that address with its range. */
  embedded?: { form: string; address: string; range: string };
  /** True when only CALLBACK_ALLOWED_NETWORKS let it through. */
  byAllowance?: boolean;
}

const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
/** 2000::/3, the IANA global unicast space: everything outside it is special or unassigned. */
const globalUnicast = ipaddr.parseCIDR('2000::/3');
/** The NAT64 well-known prefix (RFC 6052): the IPv4 address is the last 32 bits. */
const nat64WellKnown = ipaddr.parseCIDR('64:ff9b::/96');

/**
 * The IPv4 address an IPv6 transition form stands for: IPv4-mapped `::ffff:a.b.c.d`,
 * IPv4-translated `::ffff:0:a.b.c.d`, IPv4-compatible `::a.b.c.d` (`[::7f00:1]` is 127.0.0.1),
 * NAT64 `64:ff9b::a.b.c.d`, 6to4 `2002:AABB:CCDD::/48` and Teredo (the client address, stored
 * inverted). `null` for the local-use NAT64 prefix 64:ff9b:1::/48, whose embedding depends on the
 * local network's prefix length and so cannot be read: such addresses are refused.
 */
export function embeddedIPv4(a: ipaddr.IPv6): ipaddr.IPv4[] | null | undefined {
  const p = a.parts as [number, number, number, number, number, number, number, number];
  const last = () => v4(p[6], p[7]);
  switch (a.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return [last()];
    case 'rfc6052':
      return a.match(nat64WellKnown) ? [last()] : null;
    case '6to4':
      return [v4(p[1], p[2])];
    case 'teredo':
      // The Teredo server (bits 32-63) and the client behind it (last 32 bits, inverted).
      return [v4(p[2], p[3]), v4(p[6] ^ 0xffff, p[7] ^ 0xffff)];
    default:
      // IPv4-compatible (deprecated, ::/96): the first 96 bits are zero.
      return p.slice(0, 6).every((x) => x === 0) ? [last()] : undefined;
  }
}

const forms: Record<string, string> = {
  ipv4Mapped: 'IPv4-mapped',
  rfc6145: 'IPv4-translated',
  rfc6052: 'NAT64',
  '6to4': '6to4',
  teredo: 'Teredo',
};

const inNetworks = (a: Address, networks: Network[]) =>
  networks.some(([net, bits]) => net.kind() === a.kind() && a.match(net, bits));

/**
 * Classifies a callback address with ipaddr.js: allowed only when its range is `unicast` after
 * unwrapping every IPv6 form that carries an IPv4 address (that IPv4 address must be `unicast`
 * too). Loopback, private, link-local, CGNAT, multicast, broadcast, unspecified, reserved and the
 * documentation ranges (192.0.2/24, 198.51.100/24, 203.0.113/24, 2001:db8::/32, 3fff::/20) are
 * refused, and IPv6 outside the global unicast space 2000::/3. `allowedNetworks` (configured,
 * empty by default) lets chosen networks through anyway: a receiver on this machine in tests and
 * local development.
 */
export function classifyAddress(raw: string, allowedNetworks: Network[] = []): AddressVerdict {
  const text = raw.replace(/^\[|\]$/g, '');
  if (!isIP(text)) return { allowed: false, range: 'invalid' };
  const a = ipaddr.parse(text);
  let verdict: AddressVerdict;
  let unwrapped: ipaddr.IPv4[] = [];
  if (a.kind() === 'ipv4') {
    const range = a.range();
    verdict = { allowed: range === 'unicast', range };
  } else {
    const v6 = a as ipaddr.IPv6;
    const range = v6.range();
    const embedded = range === 'unspecified' || range === 'loopback' ? undefined : embeddedIPv4(v6);
    if (embedded === null) verdict = { allowed: false, range: 'local-use NAT64' };
    else if (embedded) {
      unwrapped = embedded;
      const bad = embedded.find((e) => e.range() !== 'unicast') ?? embedded[embedded.length - 1]!;
      verdict = {
        allowed: embedded.every((e) => e.range() === 'unicast'),
        range,
        embedded: { form: forms[range] ?? 'IPv4-compatible', address: bad.toString(), range: bad.range() },
      };
    } else verdict = { allowed: range === 'unicast' && v6.match(globalUnicast), range };
  }
  const allowance =
    inNetworks(a, allowedNetworks) ||
    (unwrapped.length > 0 && unwrapped.every((e) => inNetworks(e, allowedNetworks)));
  return !verdict.allowed && allowance ? { ...verdict, allowed: true, byAllowance: true } : verdict;
}

/** Parses CALLBACK_ALLOWED_NETWORKS entries (`127.0.0.0/8`, `::1/128`, or a single address). */
export function parseNetworks(entries: string[]): Network[] {
  return entries.map((entry) => {
    if (ipaddr.isValidCIDR(entry)) return ipaddr.parseCIDR(entry);
    const a = ipaddr.parse(entry);
    return [a, a.kind() === 'ipv4' ? 32 : 128];
  });
}

export const isValidNetwork = (entry: string) =>
  ipaddr.isValidCIDR(entry) || (isIP(entry) !== 0 && ipaddr.isValid(entry));

/** `127.0.0.1 is a loopback address`, `::7f00:1 is the IPv4-compatible form of 127.0.0.1 (loopback)`. */
function describe(address: string, v: AddressVerdict): string {
  if (v.embedded)
    return `${address} is the ${v.embedded.form} form of ${v.embedded.address} (${v.embedded.range})`;
  if (v.range === 'unicast') return `${address} is outside the global unicast space 2000::/3`;
  return `${address} is ${/^[aeiou]/i.test(v.range) ? 'an' : 'a'} ${v.range} address`;
}

export class CallbackTargetRefused extends Error {}

/**
 * Where callbacks may go. One instance per process: the verdict for addresses, the DNS lookup
 * that applies it, and the HTTP agents that deliver callbacks with that lookup.
 */
export class CallbackTargets {
  private readonly networks: Network[];
  readonly httpAgent: HttpAgent;
  readonly httpsAgent: HttpsAgent;

  constructor(allowedNetworks: string[] = []) {
    this.networks = parseNetworks(allowedNetworks);
    // No keep-alive: every callback connects anew, so every connection goes through the lookup.
    this.httpAgent = new HttpAgent({ keepAlive: false, lookup: this.lookup });
    this.httpsAgent = new HttpsAgent({ keepAlive: false, lookup: this.lookup });
  }

  verdict(address: string): AddressVerdict {
    return classifyAddress(address, this.networks);
  }

  /** Why `address` is refused, or undefined when a callback may connect to it. */
  refusal(address: string): string | undefined {
    const v = this.verdict(address);
    return v.allowed ? undefined : describe(address, v);
  }

  /**
   * The DNS lookup of the callback agents. Checking inside the lookup (not before it) means the
   * address connected to is the address checked: an answer that changes between the check at
   * creation and the connection (DNS rebinding) cannot slip through. A name with any refused
   * address is refused as a whole.
   */
  readonly lookup: LookupFunction = (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as LookupAddress[];
      const refused = list.map((a) => this.refusal(a.address)).find(Boolean);
      if (refused || list.length === 0)
        return callback(
          new CallbackTargetRefused(`callback host ${hostname} resolves to a refused address: ${refused}`),
          '',
          0,
        );
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      const first = list[0]!;
      callback(null, first.address, first.family);
    });
  };

  /**
   * Checks a callback address when a transaction is created, so the webshop hears at once that
   * its address will never be called: scheme, no credentials, and every address the host is or
   * resolves to. `field` names the input in the messages.
   */
  async check(raw: string, field: string): Promise<URL> {
    const url = parseCallbackUrl(raw, field);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host)) {
      const refused = this.refusal(host);
      if (refused) throw new CallbackTargetRefused(`${field} is refused: ${refused}`);
      return url;
    }
    await new Promise<void>((resolve, reject) => {
      this.lookup(host, {}, (err) => (err ? reject(err) : resolve()));
    }).catch((err: unknown) => {
      if (err instanceof CallbackTargetRefused)
        throw new CallbackTargetRefused(`${field} is refused: ${err.message}`);
      throw new CallbackTargetRefused(`${field} host ${host} does not resolve`);
    });
    return url;
  }

  /** The delivery-time check of an IP literal (Node connects to those without a lookup). */
  assertLiteral(url: URL): void {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!isIP(host)) return;
    const refused = this.refusal(host);
    if (refused) throw new CallbackTargetRefused(`callback target is refused: ${refused}`);
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}

/** Syntax and scheme of a callback address (before any DNS). */
export function parseCallbackUrl(raw: string, field = 'callbackUrl'): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CallbackTargetRefused(`${field} is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new CallbackTargetRefused(`${field} must use http or https`);
  if (url.username || url.password) throw new CallbackTargetRefused(`${field} must not carry credentials`);
  return url;
}

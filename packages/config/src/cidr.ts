import { isIPv4, isIPv6 } from 'node:net';

export interface Cidr {
  net: string;
  prefix: number;
  type: 'ipv4' | 'ipv6';
}

/**
 * An address or CIDR range, strictly: only the forms `node:net` accepts (no `10.1` or octal
 * `010.0.0.1`, which other parsers widen into some address the operator did not mean); a bare
 * address is its own /32 or /128. Null when it is not one.
 */
export function parseCidr(cidr: string): Cidr | null {
  const [net = '', bits, extra] = cidr.trim().split('/');
  if (extra !== undefined) return null;
  const type = isIPv4(net) ? 'ipv4' : isIPv6(net) ? 'ipv6' : null;
  if (!type) return null;
  const max = type === 'ipv4' ? 32 : 128;
  if (bits !== undefined && !/^\d{1,3}$/.test(bits)) return null;
  const prefix = bits === undefined ? max : Number(bits);
  return prefix <= max ? { net, prefix, type } : null;
}

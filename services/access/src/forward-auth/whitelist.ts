import { BlockList, isIPv4, isIPv6 } from 'node:net';
import { parseCidr } from '@aplt/config';
import type { AccessDb } from '../db';

export const isValidCidr = (cidr: string) => parseCidr(cidr) !== null;

/** IPv4-mapped IPv6 (::ffff:1.2.3.4) is the IPv4 client it wraps. */
export function normalizeIp(ip: string): string {
  if (ip.charCodeAt(0) !== 58) return ip; // not ':': no IPv4-mapped form to unwrap
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return m ? m[1]! : ip;
}

/**
 * The static ranges from configuration merged with the whitelist table, held in memory and
 * reloaded at most every `ttlMs` (and at once after a change, in every replica), so a check costs
 * no query.
 */
export class Whitelist {
  private list = new BlockList();
  // Answers per address since the last reload: a BlockList check allocates a SocketAddress, and
  // the same few clients ask over and over.
  private answers = new Map<string, boolean>();
  private loadedAt = 0;
  private loading: Promise<void> | null = null;
  /** Moves on at every announced change: a reload that read the table before it is not current. */
  private changes = 0;

  constructor(
    private readonly db: AccessDb,
    private readonly staticRanges: string[],
    private readonly ttlMs: number,
  ) {}

  /** Tells the other replicas to reload too; set by AccessCacheEvents, a no-op for one process. */
  announce: () => Promise<void> = async () => {};

  /** After a change: this replica reloads at its next check, and so does every other. */
  async invalidate(): Promise<void> {
    this.reloadSoon();
    await this.announce();
  }

  /** Reload at the next check, in this process only. */
  reloadSoon(): void {
    this.loadedAt = 0;
    this.changes++;
  }

  async allows(ip: string): Promise<boolean> {
    while (Date.now() - this.loadedAt > this.ttlMs) await this.reload();
    return this.check(ip);
  }

  /** The answer from the ranges in memory, or undefined when they are due for a reload. */
  allowsNow(ip: string): boolean | undefined {
    return Date.now() - this.loadedAt > this.ttlMs ? undefined : this.check(ip);
  }

  private check(ip: string): boolean {
    let answer = this.answers.get(ip);
    if (answer === undefined) {
      const addr = normalizeIp(ip);
      const type = isIPv4(addr) ? 'ipv4' : isIPv6(addr) ? 'ipv6' : null;
      answer = type !== null && this.list.check(addr, type);
      if (this.answers.size >= 50_000) this.answers.clear();
      this.answers.set(ip, answer);
    }
    return answer;
  }

  private reload(): Promise<void> {
    this.loading ??= (async () => {
      const changes = this.changes;
      const rows = await this.db.selectFrom('access_ip_whitelist').select(['cidr']).execute();
      const next = new BlockList();
      for (const cidr of [...this.staticRanges, ...rows.map((r) => String(r.cidr))]) {
        const p = parseCidr(cidr);
        if (p) next.addSubnet(p.net, p.prefix, p.type);
      }
      this.list = next;
      this.answers = new Map();
      // A change announced while the rows were on their way may be missing from them: due again.
      this.loadedAt = changes === this.changes ? Date.now() : 0;
    })().finally(() => {
      this.loading = null;
    });
    return this.loading;
  }
}

/**
 * A service reached at several addresses (its replicas, `<SERVICE>_URL=http://a,http://b`): each
 * call starts at the next address in turn and moves on to the following one when no answer came
 * (refused, reset, timed out), so one dead replica costs a call no more than its own attempt. An
 * answer of any status is the answer. Only for calls that are safe to repeat: a request whose
 * answer was lost may have been carried out by the replica that lost it.
 */
export class ServiceEndpoints {
  readonly urls: readonly string[];
  private next = 0;

  constructor(urls: string | readonly string[]) {
    const list = (typeof urls === 'string' ? urls.split(',') : urls).map((u) => u.trim()).filter(Boolean);
    if (!list.length) throw new Error('a service needs at least one URL');
    for (const u of list) new URL(u); // throws on a malformed one, at start-up
    this.urls = list.map((u) => u.replace(/\/+$/, ''));
  }

  /** `path` (from its leading slash, with its query) below each base URL, through whichever replica answers first in turn. */
  async fetch(path: string, init: RequestInit & { timeoutMs?: number } = {}): Promise<Response> {
    const { timeoutMs, ...rest } = init;
    const start = this.next++ % this.urls.length;
    let lastError: unknown;
    for (let i = 0; i < this.urls.length; i++) {
      const base = this.urls[(start + i) % this.urls.length]!;
      try {
        return await fetch(`${base}${path}`, {
          ...rest,
          ...(timeoutMs === undefined ? {} : { signal: AbortSignal.timeout(timeoutMs) }),
        });
      } catch (err) {
        lastError = err;
      }
    }
    throw lastError;
  }
}

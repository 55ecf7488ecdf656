import { setTimeout as sleep } from 'node:timers/promises';

/*
 * HTTP client of the partner fulfilment API (spec 1, "Planned partner fulfilment API"): token
 * login, then JWT bearer calls. The error rules of spec 1 live here and nowhere else:
 *
 * - 401 on a call: log in again and repeat, at most `maxReauth` (3) times;
 * - 5xx, a network error or no answer within `timeoutMs` (30 s): wait 1, 2, 4 s (`retryDelaysMs`)
 *   and repeat; after the last wait the call fails;
 * - any other 4xx: fail at once, never repeated (the same request would get the same answer).
 *
 * Nothing here logs: the password and the token never reach a log line or an error message.
 */

export interface PartnerCredentials {
  baseUrl: string;
  username: string;
  password: string;
}

export interface PartnerClientOptions {
  timeoutMs: number;
  retryDelaysMs: readonly number[];
  maxReauth: number;
  /** Aborts everything (the job's time limit); an abort is never retried. */
  signal?: AbortSignal;
}

/** A partner call that failed for good: `status` is the last HTTP status (none for a network error). */
export class PartnerCallError extends Error {
  override readonly name = 'PartnerCallError';
  constructor(
    message: string,
    readonly status: number | null,
    /** The partner's answer, cut to 500 characters (for the record, never shown to customers). */
    readonly responseExcerpt: string | null = null,
  ) {
    super(message);
  }
}

interface RawAnswer {
  status: number;
  body: unknown;
  text: string;
}

const MAX_ANSWER_BYTES = 1024 * 1024;

export class PartnerClient {
  private token: string | null = null;
  /** Calls made, by kind (for the record of one job). */
  readonly counts = { logins: 0, calls: 0 };

  constructor(
    private readonly credentials: PartnerCredentials,
    private readonly opts: PartnerClientOptions,
  ) {}

  get<T = unknown>(path: string): Promise<T> {
    return this.call<T>('GET', path);
  }

  post<T = unknown>(path: string, body: unknown, headers: Record<string, string> = {}): Promise<T> {
    return this.call<T>('POST', path, body, headers);
  }

  /** One API call under the rules above. */
  async call<T>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<T> {
    let reauths = 0;
    for (;;) {
      if (this.token === null) this.token = await this.login();
      const answer = await this.withRetries(`${method} ${path}`, () =>
        this.send(method, path, body, { ...headers, authorization: `Bearer ${this.token}` }),
      );
      if (answer.status === 401) {
        this.token = null;
        if (reauths < this.opts.maxReauth) {
          reauths += 1;
          continue;
        }
        throw new PartnerCallError(
          `${method} ${path} answered 401 after ${reauths} re-login${reauths === 1 ? '' : 's'}`,
          401,
          excerpt(answer.text),
        );
      }
      if (answer.status >= 400) {
        // The partner's reason (e.g. which field it refused) is what staff need to fix it.
        const reason = answer.text ? `: ${answer.text.slice(0, 300)}` : '';
        throw new PartnerCallError(
          `${method} ${path} answered ${answer.status}${reason}`,
          answer.status,
          excerpt(answer.text),
        );
      }
      return answer.body as T;
    }
  }

  /** POST /api/v1/auth/token-auth {username, password} -> a JWT (`token`, or `access` as some servers name it). */
  private async login(): Promise<string> {
    const path = '/api/v1/auth/token-auth';
    const answer = await this.withRetries(`POST ${path}`, () =>
      this.send('POST', path, { username: this.credentials.username, password: this.credentials.password }),
    );
    if (answer.status === 401 || answer.status === 403 || answer.status === 400) {
      // The credentials themselves are refused: logging in again would be refused again.
      throw new PartnerCallError(
        `partner login refused (${answer.status})`,
        answer.status,
        excerpt(answer.text),
      );
    }
    if (answer.status >= 400)
      throw new PartnerCallError(
        `partner login answered ${answer.status}`,
        answer.status,
        excerpt(answer.text),
      );
    const b = answer.body as { token?: unknown; access?: unknown } | null;
    const token = typeof b?.token === 'string' ? b.token : typeof b?.access === 'string' ? b.access : null;
    if (!token || token.length > 8192 || /[\r\n]/.test(token))
      throw new PartnerCallError('partner login answered without a token', answer.status);
    return token;
  }

  /** Repeats `attempt` after 5xx answers and network errors, waiting the configured delays. */
  private async withRetries(what: string, attempt: () => Promise<RawAnswer>): Promise<RawAnswer> {
    const delays = this.opts.retryDelaysMs;
    for (let i = 0; ; i++) {
      let failure: PartnerCallError;
      try {
        const answer = await attempt();
        if (answer.status < 500) return answer;
        failure = new PartnerCallError(
          `${what} answered ${answer.status}`,
          answer.status,
          excerpt(answer.text),
        );
      } catch (err) {
        if (this.opts.signal?.aborted) throw this.opts.signal.reason;
        failure = new PartnerCallError(`${what}: ${describeNetworkError(err, this.opts.timeoutMs)}`, null);
      }
      if (i >= delays.length) {
        throw new PartnerCallError(
          `${failure.message} (gave up after ${delays.length} ${delays.length === 1 ? 'retry' : 'retries'})`,
          failure.status,
          failure.responseExcerpt,
        );
      }
      await sleep(delays[i], undefined, { signal: this.opts.signal });
    }
  }

  private async send(
    method: string,
    path: string,
    body: unknown,
    headers: Record<string, string> = {},
  ): Promise<RawAnswer> {
    if (path.startsWith('/api/v1/auth/')) this.counts.logins += 1;
    else this.counts.calls += 1;
    const timeout = AbortSignal.timeout(this.opts.timeoutMs);
    const signal = this.opts.signal ? AbortSignal.any([timeout, this.opts.signal]) : timeout;
    const res = await fetch(new URL(path, this.credentials.baseUrl), {
      method,
      headers: {
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
      redirect: 'error',
    });
    const text = await readCapped(res);
    let parsed: unknown = null;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = null;
      }
    }
    return { status: res.status, body: parsed, text };
  }
}

async function readCapped(res: Response): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel();
      throw new Error('answer larger than 1 MiB');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function describeNetworkError(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } } | null;
  if (e?.name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  return e?.cause?.code ?? e?.cause?.message ?? e?.message ?? 'network error';
}

const excerpt = (text: string): string | null => (text ? text.slice(0, 500) : null);

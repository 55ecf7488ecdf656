import { createHash } from 'node:crypto';
import type { HttpResponse } from '@aplt/testing';
import type { FleetFixture } from './fleet-fixture';

/** Cookies a response sets, as name -> value. */
export function setCookies(res: HttpResponse): Record<string, string> {
  const raw = res.headers['set-cookie'];
  const out: Record<string, string> = {};
  for (const line of Array.isArray(raw) ? raw : raw ? [raw] : []) {
    const [pair] = line.split(';');
    const eq = pair!.indexOf('=');
    out[pair!.slice(0, eq).trim()] = pair!.slice(eq + 1).trim();
  }
  return out;
}

export const cookieHeader = (jar: Record<string, string>) =>
  Object.entries(jar)
    .map(([k, v]) => `${k}=${v}`)
    .join('; ');

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** Solves the access login's proof-of-work CAPTCHA the way its login page does. */
export function solveCaptcha(c: { challenge: string; salt: string; maxnumber: number }): number {
  for (let n = 0; n <= c.maxnumber; n++) if (sha256(`${c.salt}${n}`) === c.challenge) return n;
  throw new Error('unsolvable challenge');
}

/**
 * A browser-like client of the access host: keeps its cookies, sends the CSRF header, solves
 * the CAPTCHA, and reads one-time codes from the fleet's mail log.
 */
export class AccessClient {
  readonly jar: Record<string, string> = {};
  csrfToken: string | undefined;

  constructor(
    private readonly fx: FleetFixture,
    readonly localAddress = '127.0.0.2',
  ) {}

  async request(method: string, path: string, body?: object, headers: Record<string, string> = {}) {
    const res = await this.fx.via('access.localhost', path, {
      method,
      ...(body === undefined ? {} : { body }),
      localAddress: this.localAddress,
      headers: {
        accept: 'application/json',
        ...(Object.keys(this.jar).length ? { cookie: cookieHeader(this.jar) } : {}),
        ...(this.csrfToken ? { 'x-csrf-token': this.csrfToken } : {}),
        ...headers,
      },
    });
    Object.assign(this.jar, setCookies(res));
    return res;
  }

  async captcha() {
    const c = (await this.request('GET', '/api/auth/captcha')).json();
    return {
      algorithm: c.algorithm,
      challenge: c.challenge,
      salt: c.salt,
      signature: c.signature,
      number: solveCaptcha(c),
    };
  }

  /** Starts a login: CSRF cookie, CAPTCHA, e-mail and password. */
  async start(email: string, password: string): Promise<HttpResponse> {
    // The cookie holds the CSRF secret (HttpOnly); the token for the header comes from the API.
    if (!this.csrfToken) this.csrfToken = (await this.request('GET', '/api/auth/csrf')).json().csrf_token;
    return this.request('POST', '/api/auth/login', { email, password, captcha: await this.captcha() });
  }

  /** The newest one-time code mailed to `email` after `since` lines of the fleet log. */
  async codeFor(email: string, since: number): Promise<string> {
    for (let i = 0; i < 200; i++) {
      const line = this.fx.output
        .slice(since)
        .reverse()
        .find((l) => l.includes(`mail to ${email}`) && /\| code \d{6}/.test(l));
      if (line) return /\| code (\d{6})/.exec(line)![1]!;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no code mailed to ${email}`);
  }

  /** A whole login (and a first-login password change when asked); leaves the session cookie in the jar. */
  async login(email: string, password: string, newPassword?: string): Promise<void> {
    const since = this.fx.output.length;
    const started = await this.start(email, password);
    if (started.status !== 200) throw new Error(`login ${email}: ${started.status} ${started.text()}`);
    const code = await this.codeFor(email, since);
    const verified = await this.request('POST', '/api/auth/verify', {
      challenge_id: started.json().challenge_id,
      code,
    });
    if (verified.status !== 200) throw new Error(`verify ${email}: ${verified.status} ${verified.text()}`);
    if (verified.json().step === 'change_password') {
      const changed = await this.request('POST', '/api/auth/change-password', {
        challenge_id: verified.json().challenge_id,
        new_password: newPassword ?? `${password}-Next-1!`,
      });
      if (changed.status !== 200) throw new Error(`change ${email}: ${changed.status} ${changed.text()}`);
    }
  }
}

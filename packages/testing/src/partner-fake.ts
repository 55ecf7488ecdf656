import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A real HTTP server on loopback that speaks the partner fulfilment API of spec 1 (token login,
 * business-contact organisations, transactions), with an order-creation endpoint
 * `POST /api/v1/admin/transaction/` that honours `Idempotency-Key` the way such APIs do: a key
 * seen before answers the transaction it created, and creates nothing. Each route can be told to
 * fail (a status, or no answer at all) for its next requests or for good, so tests drive the
 * client through 401s, 5xx, hangs and 4xx.
 */

export type PartnerRoute =
  'login' | 'organisations.list' | 'organisations.create' | 'transactions.create' | 'transactions.get';

/** A scripted answer: a status (with an optional body), or `hang` (keep the request open, never answer). */
export type PartnerFault = { status: number; body?: unknown } | 'hang';

export interface PartnerRequest {
  route: PartnerRoute | 'other';
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface PartnerTransaction {
  process_id: string;
  document_id: string;
  status: string;
  tracking_url: string | null;
  idempotency_key: string | null;
  organisation_id: string | null;
  payload: Record<string, unknown>;
}

export interface PartnerFake {
  url: string;
  requests: PartnerRequest[];
  /** Transactions really created (a repeated idempotency key adds none). */
  transactions: PartnerTransaction[];
  organisations: Array<{ id: string; name: string; external_reference: string | null }>;
  /** The next requests of `route` get these answers, in order; then normal service resumes. */
  failNext(route: PartnerRoute, ...faults: PartnerFault[]): void;
  /** Every request of `route` gets this answer until `recover(route)`. */
  failAlways(route: PartnerRoute, fault: PartnerFault): void;
  recover(route?: PartnerRoute): void;
  /** Tokens issued so far stop working (the next call answers 401). */
  expireTokens(): void;
  /** Changes a transaction as the partner's own staff would (shipped with a tracking link). */
  update(processId: string, change: Partial<Pick<PartnerTransaction, 'status' | 'tracking_url'>>): void;
  count(route: PartnerRoute): number;
  close(): Promise<void>;
}

export async function startPartnerFake(
  opts: { username?: string; password?: string; host?: string } = {},
): Promise<PartnerFake> {
  const username = opts.username ?? 'partner-user';
  const password = opts.password ?? 'partner-password';
  const requests: PartnerRequest[] = [];
  const transactions: PartnerTransaction[] = [];
  const organisations: PartnerFake['organisations'] = [];
  const byKey = new Map<string, PartnerTransaction>();
  const tokens = new Set<string>();
  const scripted = new Map<PartnerRoute, PartnerFault[]>();
  const always = new Map<PartnerRoute, PartnerFault>();
  const hanging = new Set<ServerResponse>();
  let seq = 0;

  const send = (res: ServerResponse, status: number, body?: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(body === undefined ? '' : JSON.stringify(body));
  };

  const routeOf = (method: string, path: string): { route: PartnerRoute | 'other'; params?: string[] } => {
    if (method === 'POST' && path === '/api/v1/auth/token-auth') return { route: 'login' };
    if (path === '/api/v1/admin/business-contacts/organisations')
      return { route: method === 'POST' ? 'organisations.create' : 'organisations.list' };
    if (method === 'POST' && path === '/api/v1/admin/transaction/') return { route: 'transactions.create' };
    const m = /^\/api\/v1\/admin\/transaction\/([^/]+)\/([^/]+)$/.exec(path);
    if (method === 'GET' && m) return { route: 'transactions.get', params: [m[1]!, m[2]!] };
    return { route: 'other' };
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://partner.invalid');
      const method = req.method ?? 'GET';
      const { route, params } = routeOf(method, url.pathname);
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = null;
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {
        body = raw;
      }
      requests.push({ route, method, url: req.url ?? '/', headers: req.headers, body });
      // A fake, not a validator: the fields it reads are taken as sent.
      const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
      if (route === 'other') return send(res, 404, { detail: 'Not found.' });

      const fault = scripted.get(route)?.shift() ?? always.get(route);
      if (fault === 'hang') {
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return;
      }
      if (fault) return send(res, fault.status, fault.body ?? { detail: `scripted ${fault.status}` });

      if (route === 'login') {
        if (fields.username !== username || fields.password !== password)
          return send(res, 401, { detail: 'No active account found with the given credentials' });
        const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
        const token = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: username, jti: randomBytes(8).toString('hex') })}.${randomBytes(16).toString('base64url')}`;
        tokens.add(token);
        return send(res, 200, { token });
      }
      const auth = req.headers.authorization ?? '';
      if (!auth.startsWith('Bearer ') || !tokens.has(auth.slice(7)))
        return send(res, 401, { detail: 'Given token not valid for any token type' });

      switch (route) {
        case 'organisations.list': {
          const ref = url.searchParams.get('external_reference');
          return send(res, 200, {
            count: organisations.length,
            results: organisations.filter((o) => ref === null || o.external_reference === ref),
          });
        }
        case 'organisations.create': {
          if (typeof fields.name !== 'string' || !fields.name)
            return send(res, 400, { name: ['This field is required.'] });
          const org = {
            id: `ORG-${++seq}`,
            name: fields.name,
            external_reference: (fields.external_reference ?? null) as string | null,
          };
          organisations.push(org);
          return send(res, 201, org);
        }
        case 'transactions.create': {
          const key =
            typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : null;
          const seen = key ? byKey.get(key) : undefined;
          if (seen) return send(res, 200, view(seen));
          if (!Array.isArray(fields.lines) || !fields.lines.length)
            return send(res, 400, { lines: ['At least one line is required.'] });
          const n = ++seq;
          const t: PartnerTransaction = {
            process_id: `PR-${n}`,
            document_id: `DOC-${n}`,
            status: 'open',
            tracking_url: null,
            idempotency_key: key,
            organisation_id: (fields.organisation_id ?? null) as string | null,
            payload: fields,
          };
          transactions.push(t);
          if (key) byKey.set(key, t);
          return send(res, 201, view(t));
        }
        case 'transactions.get': {
          const t = transactions.find((x) => x.process_id === params![0] && x.document_id === params![1]);
          return t ? send(res, 200, view(t)) : send(res, 404, { detail: 'Not found.' });
        }
      }
    });
  });
  const view = (t: PartnerTransaction) => ({
    process_id: t.process_id,
    document_id: t.document_id,
    status: t.status,
    tracking_url: t.tracking_url,
    organisation_id: t.organisation_id,
    reference: t.payload.reference ?? null,
  });

  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}`,
    requests,
    transactions,
    organisations,
    failNext(route, ...faults) {
      scripted.set(route, [...(scripted.get(route) ?? []), ...faults]);
    },
    failAlways(route, fault) {
      always.set(route, fault);
    },
    recover(route) {
      if (route) {
        scripted.delete(route);
        always.delete(route);
      } else {
        scripted.clear();
        always.clear();
      }
    },
    expireTokens() {
      tokens.clear();
    },
    update(processId, change) {
      const t = transactions.find((x) => x.process_id === processId);
      if (!t) throw new Error(`no transaction ${processId}`);
      Object.assign(t, change);
    },
    count: (route) => requests.filter((r) => r.route === route).length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

import { badRequest, conflict, notFound } from '@aplt/http';
import { isUniqueViolation } from '@aplt/db';
import { z } from 'zod';
import type { AccessApp } from '../app';
import { ACCESS_ADMIN_ROLE } from '../auth/auth.routes';
import { requireRole, requireSession } from '../auth/guards';
import { DEVICE_COOKIE, SESSION_COOKIE } from '../auth/tokens';
import type { Config } from '../config';
import type { AccessDb } from '../db';
import { deniedPage } from './denied-page';
import type { IdentityCache } from './identity-cache';
import type { DecisionMetrics } from './metrics';
import { derivedAccessUrl, safeReturnUrl } from './return-url';
import { decide, negotiate } from './validate.service';
import { isValidCidr, normalizeIp, type Whitelist } from './whitelist';

interface Deps {
  db: AccessDb;
  config: Config;
  whitelist: Whitelist;
  identities: IdentityCache;
  metrics: DecisionMetrics;
}

const header = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * The proxy's question "may this request through?". request.ip is the client as the trusted
 * proxies report it (right-most untrusted X-Forwarded-For entry, else the peer), so a client
 * cannot whitelist itself with a header of its own.
 */
export async function validateRoutes(app: AccessApp, deps: Deps) {
  const { config, metrics } = deps;

  app.get('/api/validate', async (request, reply) => {
    const method = header(request.headers['x-forwarded-method']);
    const host = header(request.headers['x-forwarded-host']);
    const uri = header(request.headers['x-forwarded-uri']);
    if (!method || !host || !uri) {
      metrics.count('bad_request', 'missing_forwarded_headers');
      throw badRequest(
        'X-Forwarded-Method, X-Forwarded-Host and X-Forwarded-Uri are required (forward auth only)',
        {
          missing: [
            !method && 'X-Forwarded-Method',
            !host && 'X-Forwarded-Host',
            !uri && 'X-Forwarded-Uri',
          ].filter(Boolean),
        },
      );
    }
    const ip = normalizeIp(request.ip);
    const decision = await decide(deps, {
      ip,
      sessionToken: request.cookies[SESSION_COOKIE],
      deviceToken: request.cookies[DEVICE_COOKIE],
    });
    if (decision.allow) {
      metrics.count('allow', decision.via);
      request.log.info(
        { decision: 'allow', reason: decision.via, ip, host, user: decision.identity?.email },
        'forward auth',
      );
      // All three always: the proxy copies them over client values, and Caddy would copy the
      // literal placeholder of a header that is absent.
      void reply.header('x-auth-via', decision.via);
      void reply.header('x-auth-user', decision.identity?.email ?? '');
      void reply.header('x-auth-roles', decision.identity?.roles.join(',') ?? '');
      return reply.status(200).send();
    }
    metrics.count('deny', decision.reason);
    request.log.info({ decision: 'deny', reason: decision.reason, ip, host, uri }, 'forward auth');

    const proto = header(request.headers['x-forwarded-proto']) === 'https' ? 'https' : 'http';
    const loginBase = config.ACCESS_PUBLIC_URL ?? derivedAccessUrl(proto, host);
    const returnTo = safeReturnUrl(`${proto}://${host}${uri}`, config.ACCESS_RETURN_DOMAINS);
    const loginUrl = `${loginBase.replace(/\/$/, '')}/login${returnTo ? `?rd=${encodeURIComponent(returnTo)}` : ''}`;
    const upper = method.toUpperCase();
    const kind = negotiate(
      {
        accept: header(request.headers.accept),
        xRequestedWith: header(request.headers['x-requested-with']),
        secFetchMode: header(request.headers['sec-fetch-mode']),
      },
      upper,
      config.ACCESS_DENIED_MODE,
    );
    void reply.header('cache-control', 'no-store');
    switch (kind) {
      case 'json':
        return reply
          .status(401)
          .send({ type: 'unauthorized', message: 'Access denied', ip, login_url: loginUrl });
      case 'page':
        void reply.status(401).type('text/html; charset=utf-8');
        return upper === 'HEAD' ? reply.send() : reply.send(deniedPage(ip, loginUrl));
      case 'redirect':
        return reply.status(302).header('location', loginUrl).send();
      case 'see_other':
        return reply.status(303).header('location', loginUrl).send();
    }
  });

  app.get('/metrics', async (_request, reply) =>
    reply.type('text/plain; version=0.0.4').send(metrics.render()),
  );

  // Whitelist administration (CIDR ranges, IPv4 and IPv6).
  const admin = [requireSession(deps.identities), requireRole(ACCESS_ADMIN_ROLE)];
  const entry = z.object({ id: z.number(), cidr: z.string(), note: z.string().nullable() });
  app.get(
    '/api/admin/whitelist',
    { preHandler: admin, schema: { response: { 200: z.array(entry) } } },
    async () =>
      (
        await deps.db.selectFrom('access_ip_whitelist').select(['id', 'cidr', 'note']).orderBy('id').execute()
      ).map((r) => ({
        ...r,
        cidr: String(r.cidr),
      })),
  );
  app.post(
    '/api/admin/whitelist',
    {
      preHandler: admin,
      schema: {
        body: z.object({ cidr: z.string().max(50), note: z.string().max(200).optional() }),
        response: { 201: entry },
      },
    },
    async (request, reply) => {
      if (!isValidCidr(request.body.cidr))
        throw badRequest('Not a CIDR range like 10.0.0.0/8 or 2001:db8::/32');
      try {
        const row = await deps.db
          .insertInto('access_ip_whitelist')
          .values({ cidr: request.body.cidr, note: request.body.note ?? null })
          .returning(['id', 'cidr', 'note'])
          .executeTakeFirstOrThrow();
        deps.whitelist.invalidate();
        return reply.status(201).send({ ...row, cidr: String(row.cidr) } as z.infer<typeof entry>);
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict('This range is already whitelisted');
        throw err;
      }
    },
  );
  app.delete(
    '/api/admin/whitelist/:id',
    {
      preHandler: admin,
      schema: {
        params: z.object({ id: z.coerce.number().int() }),
        response: { 200: z.object({ ok: z.literal(true) }) },
      },
    },
    async (request) => {
      const r = await deps.db
        .deleteFrom('access_ip_whitelist')
        .where('id', '=', request.params.id)
        .executeTakeFirst();
      if (Number(r.numDeletedRows) === 0) throw notFound('No such whitelist entry');
      deps.whitelist.invalidate();
      return { ok: true as const };
    },
  );
}

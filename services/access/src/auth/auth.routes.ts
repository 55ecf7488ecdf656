import { notFound } from '@aplt/http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AccessApp } from '../app';
import type { Config } from '../config';
import type { AccessDb } from '../db';
import type { IdentityCache } from '../forward-auth/identity-cache';
import { safeReturnUrl } from '../forward-auth/return-url';
import { CALLBACK_PATH } from '../forward-auth/validate.handler';
import { cookieCovers, issueLoginTicket } from './login-ticket.service';
import { captchaSolution, createChallenge } from './captcha';
import { captchaWidget, captchaWidgetRoute } from './captcha-widget';
import { ensureCsrfToken, isHttps, requireRole, requireSession } from './guards';
import { loginPage } from './login-page';
import * as login from './login.service';
import type { OtpChannel } from './otp-channel';
import * as sessions from './session.repository';
import { listBans } from './throttle.repository';
import { DEVICE_COOKIE, SESSION_COOKIE, tokenHash } from './tokens';

export { ACCESS_ADMIN_ROLE } from './roles';
import { ACCESS_ADMIN_ROLE } from './roles';

interface Deps {
  db: AccessDb;
  config: Config;
  otp: OtpChannel;
  identities: IdentityCache;
}

const okBody = z.object({ ok: z.literal(true) });
const doneBody = z.object({ step: z.literal('done'), redirect: z.string(), email: z.string() });

function cookieOpts(request: FastifyRequest, config: Config, maxAgeSeconds: number) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: isHttps(request),
    maxAge: maxAgeSeconds,
    ...(config.ACCESS_COOKIE_DOMAIN ? { domain: config.ACCESS_COOKIE_DOMAIN } : {}),
  };
}

function setLoginCookies(
  request: FastifyRequest,
  reply: FastifyReply,
  config: Config,
  issued: login.IssuedLogin,
) {
  void reply.setCookie(
    SESSION_COOKIE,
    issued.sessionToken,
    cookieOpts(request, config, config.ACCESS_SESSION_HOURS * 3600),
  );
  if (issued.deviceToken)
    void reply.setCookie(
      DEVICE_COOKIE,
      issued.deviceToken,
      cookieOpts(request, config, config.ACCESS_DEVICE_TOKEN_DAYS * 86400),
    );
}

/** Login (CAPTCHA + password + one-time code), password change, logout, sessions and devices. */
export async function authRoutes(app: AccessApp, deps: Deps) {
  const { config } = deps;
  const session = requireSession(deps.identities);
  // Where the browser goes after a login. A host the new cookies do not reach gets them through
  // a one-time ticket that its own forward-auth check redeems (validate.handler's callback).
  const doneFor = async (
    request: FastifyRequest,
    issued: login.IssuedLogin,
    returnTo: string | null | undefined,
  ) => {
    const target = safeReturnUrl(returnTo, config.ACCESS_RETURN_DOMAINS);
    let redirect = target ?? '/admin/licenses';
    if (target && !cookieCovers(new URL(target).host, request.host, config.ACCESS_COOKIE_DOMAIN)) {
      const ticket = await issueLoginTicket(deps.db, {
        sessionToken: issued.sessionToken,
        returnUrl: target,
        trustDevice: issued.deviceToken !== null,
      });
      redirect = `${new URL(target).origin}${CALLBACK_PATH}?ticket=${ticket}`;
    }
    return { step: 'done' as const, redirect, email: issued.email };
  };

  const widget = captchaWidget();
  captchaWidgetRoute(app, widget);

  app.get(
    '/login',
    { schema: { querystring: z.object({ rd: z.string().optional() }) } },
    async (request, reply) => {
      const csrf = ensureCsrfToken(request, reply);
      const returnTo = safeReturnUrl(request.query.rd, config.ACCESS_RETURN_DOMAINS);
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(loginPage({ csrf, returnTo, captchaWidgetUrl: widget.url }));
    },
  );

  app.get(
    '/api/auth/csrf',
    { schema: { response: { 200: z.object({ csrf_token: z.string() }) } } },
    async (request, reply) => ({
      csrf_token: ensureCsrfToken(request, reply),
    }),
  );

  app.get('/api/auth/captcha', async (_request, reply) => {
    void reply.header('cache-control', 'no-store');
    return createChallenge(config.ACCESS_CAPTCHA_SECRET, config.ACCESS_CAPTCHA_MAX_NUMBER);
  });

  app.post(
    '/api/auth/login',
    {
      schema: {
        body: z.object({
          email: z.string().email().max(255),
          password: z.string().min(1).max(1000),
          captcha: captchaSolution,
          trust_device: z.boolean().optional(),
        }),
        response: {
          200: z.object({
            step: z.literal('otp'),
            challenge_id: z.string(),
            channel: z.string(),
            expires_in: z.number(),
          }),
        },
      },
    },
    async (request) => login.startLogin(deps, request.body, request.ip),
  );

  app.post(
    '/api/auth/verify',
    {
      schema: {
        body: z
          .object({
            challenge_id: z.string().min(1).max(100),
            // The e-mailed code or the authenticator app's.
            code: z
              .string()
              .regex(/^\d{6}$/)
              .optional(),
            // For a user with an authenticator app who has lost it: one of their recovery codes.
            recovery_code: z.string().min(1).max(40).optional(),
            return_to: z.string().nullish(),
          })
          .refine((b) => (b.code === undefined) !== (b.recovery_code === undefined), {
            message: 'Give either code or recovery_code',
            path: ['code'],
          }),
        response: {
          200: z.union([
            doneBody,
            z.object({
              step: z.literal('change_password'),
              challenge_id: z.string(),
              problems: z.array(z.string()),
            }),
          ]),
        },
      },
    },
    async (request, reply) => {
      const result = await login.verifyCode(deps, request.body, request.ip, request.headers['user-agent']);
      if (result.step === 'change_password') return result;
      setLoginCookies(request, reply, config, result.issued);
      return doneFor(request, result.issued, request.body.return_to);
    },
  );

  app.post(
    '/api/auth/change-password',
    {
      schema: {
        body: z.object({
          challenge_id: z.string().max(100).optional(),
          current_password: z.string().max(1000).optional(),
          new_password: z.string().min(1).max(1000),
          return_to: z.string().nullish(),
        }),
        response: { 200: z.union([doneBody, okBody]) },
      },
    },
    async (request, reply) => {
      const body = request.body;
      if (body.challenge_id) {
        const issued = await login.completePasswordChange(
          deps,
          { challenge_id: body.challenge_id, new_password: body.new_password },
          request.ip,
          request.headers['user-agent'],
        );
        setLoginCookies(request, reply, config, issued);
        return doneFor(request, issued, body.return_to);
      }
      await session(request);
      await login.changeOwnPassword(
        deps,
        request.identity!,
        body.current_password ?? '',
        body.new_password,
        request.ip,
      );
      return { ok: true as const };
    },
  );

  app.post('/api/auth/logout', { schema: { response: { 200: okBody } } }, async (request, reply) => {
    const token = request.cookies[SESSION_COOKIE];
    if (token)
      for (const id of await sessions.revokeSession(deps.db, tokenHash(token)))
        await deps.identities.forget(id);
    const clear = {
      path: '/',
      ...(config.ACCESS_COOKIE_DOMAIN ? { domain: config.ACCESS_COOKIE_DOMAIN } : {}),
    };
    void reply.clearCookie(SESSION_COOKIE, clear);
    return { ok: true as const };
  });

  app.get('/api/auth/me', { preHandler: session }, async (request) => {
    const i = request.identity!;
    return { email: i.email, roles: i.roles, tenant_id: i.tenantId };
  });

  const listed = z.object({ id: z.string() }).catchall(z.unknown());
  app.get(
    '/api/auth/sessions',
    { preHandler: session, schema: { response: { 200: z.array(listed) } } },
    async (request) => {
      const current = request.cookies[SESSION_COOKIE] ? tokenHash(request.cookies[SESSION_COOKIE]) : null;
      return (await sessions.listSessions(deps.db, request.identity!.userId)).map((s) => ({
        ...s,
        current: s.id === current,
      }));
    },
  );
  app.delete(
    '/api/auth/sessions/:id',
    {
      preHandler: session,
      schema: { params: z.object({ id: z.string().max(100) }), response: { 200: okBody } },
    },
    async (request) => {
      const revoked = await sessions.revokeSession(deps.db, request.params.id, request.identity!.userId);
      if (!revoked.includes(request.params.id)) throw notFound('No such session');
      for (const id of revoked) await deps.identities.forget(id);
      return { ok: true as const };
    },
  );
  app.get(
    '/api/auth/devices',
    { preHandler: session, schema: { response: { 200: z.array(listed) } } },
    async (request) => sessions.listDeviceTokens(deps.db, request.identity!.userId),
  );
  app.delete(
    '/api/auth/devices/:id',
    {
      preHandler: session,
      schema: { params: z.object({ id: z.string().max(100) }), response: { 200: okBody } },
    },
    async (request) => {
      if (!(await sessions.revokeDeviceToken(deps.db, request.identity!.userId, request.params.id)))
        throw notFound('No such device token');
      await deps.identities.forget(request.params.id);
      return { ok: true as const };
    },
  );

  // Administration of the brute-force bans.
  const admin = [session, requireRole(ACCESS_ADMIN_ROLE)];
  app.get('/api/admin/bans', { preHandler: admin }, async () => listBans(deps.db));
  app.post(
    '/api/admin/unban',
    {
      preHandler: admin,
      schema: {
        body: z.object({ email: z.string().optional(), ip: z.string().optional() }),
        response: { 200: z.object({ cleared: z.number() }) },
      },
    },
    async (request) => ({ cleared: await login.unban(deps.db, request.body) }),
  );
}

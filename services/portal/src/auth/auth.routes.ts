import type { App } from '@aplt/http';
import { errorBody } from '@aplt/http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { type AuthDeps, changePassword, login, verifySecondFactor } from './auth.service';
import { requirePortalSession, sessionOf } from './guards';
import { deleteSession } from './session.repository';
import { SESSION_COOKIE } from './tokens';
import { roles } from './user.repository';

const userBody = z.object({ id: z.number(), email: z.string(), name: z.string(), role: z.enum(roles) });
const invalidCredentials = z.object({ success: z.literal(false), message: z.literal('Invalid credentials') });

function cookieOptions(request: FastifyRequest, maxAgeSeconds: number) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: request.protocol === 'https',
    maxAge: maxAgeSeconds,
  };
}

const toUser = (s: { user_id: number; email: string; name: string; role: (typeof roles)[number] }) => ({
  id: s.user_id,
  email: s.email,
  name: s.name,
  role: s.role,
});

/** The portal's own sign-in (spec 1, authentication 4): password, e-mailed code, session cookie. */
export function authRoutes(app: App, deps: AuthDeps) {
  const { db, config } = deps;
  const clearCookie = (request: FastifyRequest, reply: FastifyReply) =>
    reply.clearCookie(SESSION_COOKIE, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: request.protocol === 'https',
    });

  app.post(
    '/api/auth/login',
    {
      schema: {
        tags: ['portal-auth'],
        body: z.object({ email: z.string().min(1).max(255), password: z.string().min(1).max(1024) }),
        response: {
          200: z.object({
            success: z.literal(true),
            requires_2fa: z.literal(true),
            channel: z.string(),
            message: z.string(),
          }),
          400: errorBody,
          401: invalidCredentials,
          429: errorBody,
          503: errorBody,
        },
      },
    },
    async (request, reply) => {
      const result = await login(deps, {
        email: request.body.email,
        password: request.body.password,
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
      });
      // The body the spec fixes for every failed login, whatever the reason.
      if (!result.ok) return reply.status(401).send({ success: false, message: 'Invalid credentials' });
      void reply.setCookie(
        SESSION_COOKIE,
        result.sessionToken,
        cookieOptions(request, config.PORTAL_SESSION_DAYS * 86400),
      );
      return {
        success: true as const,
        requires_2fa: true as const,
        channel: deps.otp.name,
        message: 'A verification code has been sent',
      };
    },
  );

  app.post(
    '/api/auth/verify-2fa',
    {
      preHandler: requirePortalSession(db, { secondFactor: false }),
      schema: {
        tags: ['portal-auth'],
        body: z.object({
          code: z
            .string()
            .trim()
            .regex(/^\d{6}$/, 'a 6-digit code'),
        }),
        response: {
          200: z.object({ success: z.literal(true), user: userBody }),
          400: errorBody,
          401: errorBody,
        },
      },
    },
    async (request) => {
      const session = request.portal!;
      if (!session.second_factor_passed)
        await verifySecondFactor(deps, session.session_id, request.body.code);
      return { success: true as const, user: toUser(session) };
    },
  );

  app.get(
    '/api/auth/check',
    {
      schema: {
        tags: ['portal-auth'],
        response: {
          200: z.object({
            authenticated: z.boolean(),
            session_active: z.boolean(),
            second_factor_passed: z.boolean(),
            user: userBody.nullable(),
            role: z.enum(roles).nullable(),
          }),
        },
      },
    },
    async (request) => {
      const session = await sessionOf(db, request);
      const passed = Boolean(session?.second_factor_passed);
      return {
        authenticated: passed,
        session_active: Boolean(session),
        second_factor_passed: passed,
        user: session && passed ? toUser(session) : null,
        role: session && passed ? session.role : null,
      };
    },
  );

  app.post(
    '/api/auth/logout',
    { schema: { tags: ['portal-auth'], response: { 200: z.object({ success: z.literal(true) }) } } },
    async (request, reply) => {
      const session = await sessionOf(db, request);
      if (session) await deleteSession(db, session.session_id);
      clearCookie(request, reply);
      return { success: true as const };
    },
  );

  app.post(
    '/api/auth/change-password',
    {
      preHandler: requirePortalSession(db, { secondFactor: true }),
      schema: {
        tags: ['portal-auth'],
        body: z.object({
          current_password: z.string().min(1).max(1024),
          new_password: z.string().min(1).max(1024),
        }),
        response: {
          200: z.object({ success: z.literal(true), other_sessions_ended: z.number() }),
          400: errorBody,
          401: errorBody,
        },
      },
    },
    async (request) => {
      const session = request.portal!;
      const result = await changePassword(deps, {
        userId: session.user_id,
        sessionId: session.session_id,
        currentPassword: request.body.current_password,
        newPassword: request.body.new_password,
      });
      return { success: true as const, ...result };
    },
  );
}

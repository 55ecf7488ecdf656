import {
  type ActorClaims,
  type App,
  badRequest,
  CUSTOMER_COOKIE,
  requireActor,
  unauthorized,
  verifyActorToken,
} from '@aplt/http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AuthDeps } from '../shared/deps';
import { MAIL_LANGUAGES } from '../shared/mail-templates';
import { loginRateLimit } from '../shared/rate-limit';
import { bearerToken } from '../shared/request-helpers';
import {
  completeOtp,
  createCustomerForIdentity,
  customerLogin,
  type LoginOutcome,
  type OtpInput,
  registerCustomer,
  registerIdentity,
  resendVerification,
  verifyEmail,
} from './customer-auth.service';
import {
  confirmAuthenticator,
  disableTwoFactorFor,
  enableTwoFactorFor,
  startAuthenticatorSetup,
  twoFactorStatus,
} from './two-factor.service';

/** Carries the pending second factor between the password step and the code step. */
export const OTP_COOKIE = '_commerce_otp';

const email = z.string().trim().min(3).max(254).email();
/** The storefront page's language: account e-mails use it when the customer has no preferred one. */
const lang = z.enum(MAIL_LANGUAGES).optional();
const sessionBody = z.object({ token: z.string() });
const twoFactorMethod = z.enum(['email', 'authenticator']);
/** `method` tells the storefront what to ask for: the e-mailed code, or the authenticator app's. */
const otpRequiredBody = z.object({
  otp_required: z.literal(true),
  otp_token: z.string(),
  method: twoFactorMethod,
});
const sixDigits = z.string().regex(/^[0-9]{6}$/, 'a 6-digit code');
const currentPassword = z.string().min(1).max(1024);

/**
 * The actions of POST /store/customer/2fa, keyed like the original `{enabled}` body:
 * `{enabled: true}` (or `method: 'email'`) turns e-mailed codes on; `{enabled: true, method:
 * 'authenticator', password}` starts an app enrolment (QR code and key); `{enabled: true, method:
 * 'authenticator', code}` finishes it with the app's first code; `{enabled: false, password}`
 * turns the second factor off, whichever it is. Unknown keys are refused, so a mixed body
 * (a password and a code) is a 400, not a guess.
 */
const twoFactorAction = z.union([
  z.strictObject({ enabled: z.literal(true), method: z.literal('email').optional() }),
  z.strictObject({
    enabled: z.literal(true),
    method: z.literal('authenticator'),
    password: currentPassword,
  }),
  z.strictObject({ enabled: z.literal(true), method: z.literal('authenticator'), code: sixDigits }),
  z.strictObject({ enabled: z.literal(false), password: z.string().max(1024).optional() }),
]);

function cookieOptions(request: FastifyRequest, maxAgeSeconds: number) {
  return {
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: request.protocol === 'https',
    path: '/',
    maxAge: maxAgeSeconds,
  };
}

function answerLogin(request: FastifyRequest, reply: FastifyReply, outcome: LoginOutcome) {
  if (outcome.kind === 'otp') {
    void reply.setCookie(OTP_COOKIE, outcome.otpToken, cookieOptions(request, outcome.maxAgeSeconds));
    return { otp_required: true as const, otp_token: outcome.otpToken, method: outcome.method };
  }
  if (request.cookies[OTP_COOKIE]) void reply.clearCookie(OTP_COOKIE, { path: '/' });
  void reply.setCookie(CUSTOMER_COOKIE, outcome.token, cookieOptions(request, outcome.maxAgeSeconds));
  return { token: outcome.token };
}

/**
 * The store routes of customer accounts belong to no licensed feature: signing in to the
 * storefront is part of every tenant (spec 1, Authentication 5), like Medusa's own /store/customers.
 */
const customerAccounts = {
  feature: null,
  featureReason: 'storefront customer accounts (register, verify, sign in, 2FA) are part of every tenant',
} as const;

/** Storefront customers: register, verify e-mail, login with optional OTP, manage 2FA (spec 1, Authentication 5). */
export function customerAuthRoutes(app: App, deps: AuthDeps): void {
  const customerBody = z.object({
    id: z.string(),
    email: z.string(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    company_name: z.string().nullable().optional(),
  });

  app.post(
    '/auth/customer/emailpass/register',
    {
      config: loginRateLimit(deps.config),
      schema: { body: z.object({ email, password: z.string().max(1024) }), response: { 200: sessionBody } },
    },
    async (request) => ({
      token: await registerIdentity(deps, request.tenant, request.body.email, request.body.password),
    }),
  );

  // One step ({email, password, ...}) or Medusa's second step (Bearer registration token, no password).
  app.post(
    '/store/customers',
    {
      config: { ...customerAccounts, ...loginRateLimit(deps.config) },
      schema: {
        body: z.object({
          email,
          password: z.string().max(1024).optional(),
          first_name: z.string().max(200).optional(),
          last_name: z.string().max(200).optional(),
          // The storefront's sign-up asks for the company (B2B); Medusa's customer has the column.
          company_name: z.string().trim().max(200).optional(),
          lang,
        }),
        response: {
          200: z.object({ customer: customerBody, email_verification_required: z.literal(true) }),
          201: z.object({ customer: customerBody, email_verification_required: z.literal(true) }),
        },
      },
    },
    async (request, reply) => {
      const raw = bearerToken(request);
      if (raw) {
        const claims = await verifyActorToken<Partial<ActorClaims>>(deps.tokens.key(request.tenant), raw);
        if (
          claims?.actor_type !== 'customer' ||
          claims.actor_id !== '' ||
          typeof claims.auth_identity_id !== 'string'
        ) {
          throw unauthorized('Invalid token');
        }
        const customer = await createCustomerForIdentity(
          deps,
          request.tenant,
          claims.auth_identity_id,
          request.body,
        );
        return reply.status(200).send({ customer, email_verification_required: true as const });
      }
      if (request.body.password === undefined) throw badRequest('A password is required');
      const customer = await registerCustomer(deps, request.tenant, {
        ...request.body,
        password: request.body.password,
      });
      return reply.status(201).send({ customer, email_verification_required: true as const });
    },
  );

  app.post(
    '/store/customers/verify-email',
    {
      config: customerAccounts,
      schema: {
        body: z.object({ token: z.string().min(1).max(200) }),
        response: { 200: z.object({ verified: z.literal(true), email: z.string() }) },
      },
    },
    async (request) => ({
      verified: true as const,
      ...(await verifyEmail(deps, request.tenant, request.body.token)),
    }),
  );

  app.post(
    '/store/customers/verify-email/resend',
    {
      config: { ...customerAccounts, ...loginRateLimit(deps.config) },
      schema: { body: z.object({ email, lang }) },
    },
    async (request, reply) => {
      resendVerification(deps, request.tenant, request.body.email, request.body.lang);
      return reply.status(202).send({ sent: true });
    },
  );

  app.post(
    '/auth/customer/emailpass',
    {
      config: loginRateLimit(deps.config),
      schema: {
        body: z.object({
          email: z.string().min(1).max(320),
          password: z.string().min(1).max(1024),
          remember_me: z.boolean().optional(),
          lang,
        }),
        response: { 200: z.union([sessionBody, otpRequiredBody]) },
      },
    },
    async (request, reply) => {
      const outcome = await customerLogin(deps, request.tenant, {
        email: request.body.email,
        password: request.body.password,
        rememberMe: request.body.remember_me ?? false,
        lang: request.body.lang,
      });
      return answerLogin(request, reply, outcome);
    },
  );

  app.post(
    '/store/auth/otp',
    {
      config: { ...customerAccounts, ...loginRateLimit(deps.config) },
      schema: {
        body: z.object({
          email: z.string().min(1).max(320),
          // The e-mailed code, or the authenticator app's when that is the customer's method.
          code: sixDigits.optional(),
          recovery_code: z.string().min(1).max(64).optional(),
          resend: z.boolean().optional(),
          lang,
        }),
        response: { 200: sessionBody, 202: z.object({ sent: z.literal(true) }) },
      },
    },
    async (request, reply) => {
      const { email: address, code, recovery_code, resend } = request.body;
      const given = [code !== undefined, recovery_code !== undefined, resend === true].filter(Boolean).length;
      if (given !== 1) throw badRequest('Send exactly one of code, recovery_code or resend: true');
      const input: OtpInput =
        code !== undefined
          ? { email: address, code }
          : recovery_code !== undefined
            ? { email: address, recovery_code }
            : { email: address, resend: true, lang: request.body.lang };
      const raw = bearerToken(request) ?? request.cookies[OTP_COOKIE];
      const pending = raw ? await deps.tokens.verifyOtpPending(request.tenant, raw) : undefined;
      const outcome = await completeOtp(deps, request.tenant, pending, input, request.ip);
      if (outcome.kind === 'resent') return reply.status(202).send({ sent: true as const });
      return answerLogin(request, reply, outcome) as { token: string };
    },
  );

  app.post('/store/auth/logout', { config: customerAccounts }, async (_request, reply) => {
    void reply.clearCookie(CUSTOMER_COOKIE, { path: '/' });
    return { success: true };
  });

  const status = z.object({
    enabled: z.boolean(),
    method: twoFactorMethod.nullable(),
    recovery_codes_remaining: z.number().int(),
  });
  app.get(
    '/store/customer/2fa',
    {
      config: customerAccounts,
      preHandler: requireActor('customer'),
      schema: { response: { 200: status } },
    },
    async (request) => twoFactorStatus(deps, request.tenant, request.actor!.actorId),
  );

  app.post(
    '/store/customer/2fa',
    {
      config: customerAccounts,
      preHandler: requireActor('customer'),
      schema: {
        body: twoFactorAction,
        response: {
          200: z.object({
            enabled: z.boolean(),
            method: twoFactorMethod.nullable(),
            recovery_codes: z.array(z.string()).optional(),
            // Only in the answer that starts an authenticator enrolment.
            setup: z
              .object({
                secret: z.string(),
                otpauth_uri: z.string(),
                qr_svg: z.string(),
                qr_data_url: z.string(),
                expires_in: z.number().int(),
              })
              .optional(),
          }),
        },
      },
    },
    async (request, reply) => {
      const customerId = request.actor!.actorId;
      const body = request.body;
      // The answers carry a secret or recovery codes: no cache may keep them.
      void reply.header('cache-control', 'no-store');
      if (!body.enabled) {
        if (!body.password)
          throw badRequest('The password is required to turn off two-factor authentication');
        return disableTwoFactorFor(deps, request.tenant, customerId, body.password);
      }
      if (body.method !== 'authenticator') return enableTwoFactorFor(deps, request.tenant, customerId);
      if ('password' in body) return startAuthenticatorSetup(deps, request.tenant, customerId, body.password);
      return confirmAuthenticator(deps, request.tenant, customerId, body.code);
    },
  );
}

import { createHash, randomBytes, randomInt } from 'node:crypto';
import {
  actorTokenValid,
  type ApltDatabase,
  type CommerceDatabase,
  isUniqueViolation,
  newId,
  type TenantRecord,
} from '@aplt/db';
import { badRequest, conflict, forbidden, tokenIssuedAt, tooManyRequests, unauthorized } from '@aplt/http';
import { hashPassword, recoveryCodeHash } from '@aplt/passwords';
import { checkCredentials, INVALID_CREDENTIALS } from '../shared/credentials.service';
import type { AuthDeps } from '../shared/deps';
import {
  createIdentity,
  findEntityIdOf,
  findIdentity,
  findIdentityById,
  linkActor,
} from '../shared/identity.repository';
import { isMailLanguage, type MailLanguage, otpMail, verifyEmailMail } from '../shared/mail-templates';
import { assertPasswordRules } from '../shared/password-rules';
import { linkColumn, tenantLink } from '../shared/request-helpers';
import type { OtpPendingClaims } from '../shared/tokens';
import {
  findCustomer,
  insertCustomer,
  markEmailVerified,
  tenantDefaultLanguage,
} from './customer.repository';
import {
  codesSentSince,
  consumeOtpCode,
  consumeRecoveryCode,
  findTwoFactor,
  recentFailedAttempts,
  recordOtpAttempt,
  replaceOtpCode,
  type TwoFactorMethod,
} from './two-factor.repository';
import { authenticatorCodeAccepted } from './two-factor.service';
import { consumeVerification, insertVerification } from './verification.repository';

export const OTP_MINUTES = 10;
export const OTP_ATTEMPT_WINDOW_MINUTES = 15;
export const OTP_MAX_FAILED_ATTEMPTS = 3;
const OTP_MAX_SENDS_PER_WINDOW = 5;

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * The language of a customer's account e-mail: the customer's preferred language, else the one
 * the storefront says its page is in (`lang`), else the tenant's (its default brand's), else Dutch.
 */
export async function customerMailLanguage(
  deps: AuthDeps,
  tenant: TenantRecord,
  preferred: unknown,
  requested: unknown,
): Promise<MailLanguage> {
  if (isMailLanguage(preferred)) return preferred;
  if (isMailLanguage(requested)) return requested;
  const own = await tenantDefaultLanguage(deps.databases.aplt<ApltDatabase>(tenant));
  return isMailLanguage(own) ? own : 'nl';
}

const preferredOf = (metadata: Record<string, unknown> | null | undefined) => metadata?.preferred_language;

export type LoginOutcome =
  | { kind: 'session'; token: string; maxAgeSeconds: number }
  | { kind: 'otp'; otpToken: string; maxAgeSeconds: number; method: TwoFactorMethod };

export async function registerCustomer(
  deps: AuthDeps,
  tenant: TenantRecord,
  input: {
    email: string;
    password: string;
    first_name?: string | undefined;
    last_name?: string | undefined;
    company_name?: string | undefined;
    lang?: MailLanguage | undefined;
  },
) {
  assertPasswordRules(input.password, input.email);
  const db = deps.databases.commerce<CommerceDatabase>(tenant);
  if (await findIdentity(db, input.email, 'emailpass')) throw conflict('Identity with email already exists');
  const hash = await hashPassword(input.password);
  const customerId = newId('cus');
  try {
    await db.transaction().execute(async (trx) => {
      await insertCustomer(trx, {
        id: customerId,
        email: input.email,
        firstName: input.first_name,
        lastName: input.last_name,
        companyName: input.company_name,
        preferredLanguage: input.lang,
      });
      await createIdentity(trx, {
        entityId: input.email,
        provider: 'emailpass',
        hash,
        appMetadata: { customer_id: customerId },
      });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('Identity with email already exists');
    throw err;
  }
  sendVerification(deps, tenant, { email: input.email, customerId, preferred: input.lang });
  return {
    id: customerId,
    email: input.email,
    first_name: input.first_name ?? null,
    last_name: input.last_name ?? null,
    company_name: input.company_name || null,
  };
}

/**
 * Medusa v2's first registration step: an identity without a customer yet, answered with a
 * registration token (actor_id ''), which `POST /store/customers` turns into a customer.
 */
export async function registerIdentity(
  deps: AuthDeps,
  tenant: TenantRecord,
  email: string,
  password: string,
): Promise<string> {
  assertPasswordRules(password, email);
  const db = deps.databases.commerce<CommerceDatabase>(tenant);
  if (await findIdentity(db, email, 'emailpass')) throw unauthorized('Identity with email already exists');
  const hash = await hashPassword(password);
  let authIdentityId: string;
  try {
    authIdentityId = await db
      .transaction()
      .execute((trx) =>
        createIdentity(trx, { entityId: email, provider: 'emailpass', hash, appMetadata: {} }),
      );
  } catch (err) {
    if (isUniqueViolation(err)) throw unauthorized('Identity with email already exists');
    throw err;
  }
  return deps.tokens.sessionToken(
    tenant,
    { actor_id: '', actor_type: 'customer', auth_identity_id: authIdentityId, app_metadata: {} },
    deps.config.JWT_TTL_SECONDS,
  );
}

/** Medusa v2's second step: the customer for a registration token's identity. */
export async function createCustomerForIdentity(
  deps: AuthDeps,
  tenant: TenantRecord,
  authIdentityId: string,
  input: {
    email: string;
    first_name?: string | undefined;
    last_name?: string | undefined;
    company_name?: string | undefined;
    lang?: MailLanguage | undefined;
  },
) {
  const db = deps.databases.commerce<CommerceDatabase>(tenant);
  const identity = await findIdentityById(db, authIdentityId);
  const entityId = identity ? await findEntityIdOf(db, authIdentityId, 'emailpass') : undefined;
  if (!identity || !entityId) throw unauthorized('Invalid token');
  if (entityId !== input.email)
    throw badRequest('The e-mail must be the one the account was registered with');
  const customerId = newId('cus');
  try {
    await db.transaction().execute(async (trx) => {
      if (!(await linkActor(trx, authIdentityId, 'customer_id', customerId))) {
        throw conflict('This registration already has a customer');
      }
      await insertCustomer(trx, {
        id: customerId,
        email: entityId,
        firstName: input.first_name,
        lastName: input.last_name,
        companyName: input.company_name,
        preferredLanguage: input.lang,
      });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('A customer with this e-mail already exists');
    throw err;
  }
  sendVerification(deps, tenant, { email: entityId, customerId, preferred: input.lang });
  return {
    id: customerId,
    email: entityId,
    first_name: input.first_name ?? null,
    last_name: input.last_name ?? null,
    company_name: input.company_name || null,
  };
}

/**
 * The verification e-mail, in the background, in the customer's language (customerMailLanguage).
 * Its link goes to the tenant's registered storefront (`tenants.store_base_url`) and names that
 * language, so the storefront opens its page in it; without a storefront URL no e-mail is sent
 * and the log says why.
 */
function sendVerification(
  deps: AuthDeps,
  tenant: TenantRecord,
  c: { email: string; customerId: string; preferred: unknown; requested?: unknown },
): void {
  deps.background.run('verify-email-mail', async () => {
    if (!tenantLink(tenant, 'store', '/verify-email', {})) {
      deps.log.error(
        { tenant: tenant.id, missing: linkColumn('store') },
        `verification e-mail not sent: tenant ${tenant.id} has no public URL in ${linkColumn('store')}`,
      );
      return;
    }
    const token = randomBytes(32).toString('base64url');
    await insertVerification(deps.databases.aplt<ApltDatabase>(tenant), {
      email: c.email,
      customerId: c.customerId,
      tokenHash: sha256(token),
      ttlHours: deps.config.VERIFY_TOKEN_TTL_HOURS,
    });
    const lang = await customerMailLanguage(deps, tenant, c.preferred, c.requested);
    const url = tenantLink(tenant, 'store', '/verify-email', { token, lang })!;
    await deps.mailer.send(verifyEmailMail({ brand: tenant.name, to: c.email, url, lang }));
  });
}

/** Answers the same for known and unknown addresses; the lookup and e-mail run in the background. */
export function resendVerification(
  deps: AuthDeps,
  tenant: TenantRecord,
  email: string,
  lang?: MailLanguage,
): void {
  deps.background.run('verify-email-resend', async () => {
    const identity = await findIdentity(
      deps.databases.commerce<CommerceDatabase>(tenant),
      email,
      'emailpass',
    );
    const customerId = identity?.appMetadata.customer_id;
    if (typeof customerId !== 'string') return;
    const customer = await findCustomer(deps.databases.commerce<CommerceDatabase>(tenant), customerId);
    if (!customer || customer.metadata?.email_verified_at) return;
    sendVerification(deps, tenant, {
      email,
      customerId,
      preferred: preferredOf(customer.metadata),
      requested: lang,
    });
  });
}

export async function verifyEmail(
  deps: AuthDeps,
  tenant: TenantRecord,
  token: string,
): Promise<{ email: string }> {
  const hit = await consumeVerification(deps.databases.aplt<ApltDatabase>(tenant), sha256(token));
  if (!hit?.customerId) throw badRequest('Invalid or expired verification token');
  await markEmailVerified(deps.databases.commerce<CommerceDatabase>(tenant), hit.customerId);
  return { email: hit.email };
}

function sessionSeconds(deps: AuthDeps, rememberMe: boolean): number {
  return (rememberMe ? deps.config.CUSTOMER_REMEMBER_DAYS : deps.config.CUSTOMER_SESSION_DAYS) * 86_400;
}

async function issueSession(
  deps: AuthDeps,
  tenant: TenantRecord,
  c: { customerId: string; authIdentityId: string; rememberMe: boolean; issuedAtMs: number },
): Promise<LoginOutcome> {
  const maxAgeSeconds = sessionSeconds(deps, c.rememberMe);
  const token = await deps.tokens.sessionToken(
    tenant,
    {
      actor_id: c.customerId,
      actor_type: 'customer',
      auth_identity_id: c.authIdentityId,
      app_metadata: { customer_id: c.customerId },
    },
    maxAgeSeconds,
    c.issuedAtMs,
  );
  return { kind: 'session', token, maxAgeSeconds };
}

/**
 * Password first; a verified e-mail is required; with 2FA on, a code is e-mailed instead of a
 * session, or, with an authenticator app, nothing is sent and the app's code is asked for.
 * Tokens are dated from before the password was read (see adminLogin).
 */
export async function customerLogin(
  deps: AuthDeps,
  tenant: TenantRecord,
  input: { email: string; password: string; rememberMe: boolean; lang?: MailLanguage | undefined },
): Promise<LoginOutcome> {
  const startedAt = Date.now();
  const identity = await checkCredentials(deps, tenant, input.email, input.password);
  const customerId = identity.appMetadata.customer_id;
  if (typeof customerId !== 'string') throw unauthorized(INVALID_CREDENTIALS);
  const customer = await findCustomer(deps.databases.commerce<CommerceDatabase>(tenant), customerId);
  if (!customer) throw unauthorized(INVALID_CREDENTIALS);
  if (!customer.metadata?.email_verified_at) {
    throw forbidden('E-mail address not verified', { reason: 'email_not_verified' });
  }
  const twoFactor = await findTwoFactor(deps.databases.aplt<ApltDatabase>(tenant), input.email);
  if (!twoFactor?.enabled) {
    return issueSession(deps, tenant, {
      customerId,
      authIdentityId: identity.authIdentityId,
      rememberMe: input.rememberMe,
      issuedAtMs: startedAt,
    });
  }
  if (twoFactor.method === 'email') {
    await sendOtp(deps, tenant, input.email, {
      preferred: preferredOf(customer.metadata),
      requested: input.lang,
    });
  }
  const otpToken = await deps.tokens.otpPending(
    tenant,
    {
      email: input.email,
      auth_identity_id: identity.authIdentityId,
      customer_id: customerId,
      remember_me: input.rememberMe,
    },
    OTP_MINUTES * 60,
    startedAt,
  );
  return { kind: 'otp', otpToken, maxAgeSeconds: OTP_MINUTES * 60, method: twoFactor.method };
}

async function sendOtp(
  deps: AuthDeps,
  tenant: TenantRecord,
  email: string,
  language: { preferred: unknown; requested: unknown },
): Promise<void> {
  const db = deps.databases.aplt<ApltDatabase>(tenant);
  if ((await codesSentSince(db, email, OTP_ATTEMPT_WINDOW_MINUTES)) >= OTP_MAX_SENDS_PER_WINDOW) {
    throw tooManyRequests('Too many codes requested. Try again later.', OTP_ATTEMPT_WINDOW_MINUTES * 60);
  }
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await replaceOtpCode(db, email, code);
  deps.background.run('otp-mail', async () => {
    const lang = await customerMailLanguage(deps, tenant, language.preferred, language.requested);
    await deps.mailer.send(otpMail({ brand: tenant.name, to: email, code, minutes: OTP_MINUTES, lang }));
  });
}

export type OtpInput =
  | { email: string; code: string }
  | { email: string; recovery_code: string }
  | { email: string; resend: true; lang?: MailLanguage | undefined };

/**
 * The second step of a 2FA login. The pending token proves the password step; at most three
 * failed codes per 15 minutes per address (e-mailed, app or recovery codes alike), then 429 until
 * the oldest failure leaves the window. With an authenticator app `code` is the app's code
 * (checked against the method stored now, not the one at the password step) and there is
 * nothing to resend.
 */
export async function completeOtp(
  deps: AuthDeps,
  tenant: TenantRecord,
  pending: (OtpPendingClaims & { iat: number; iat_ms?: number }) | undefined,
  input: OtpInput,
  ip: string,
): Promise<LoginOutcome | { kind: 'resent' }> {
  if (!pending || pending.email !== input.email) throw unauthorized('Login session expired; sign in again');
  // The pending login proved the password it was made with: a password change since voids it.
  const startedAt = Date.now();
  const stillValid = await actorTokenValid(deps.databases.commerce<CommerceDatabase>(tenant), {
    actorType: 'customer',
    actorId: pending.customer_id,
    authIdentityId: pending.auth_identity_id,
    issuedAt: tokenIssuedAt(pending),
  });
  if (!stillValid) throw unauthorized('Login session expired; sign in again');
  const db = deps.databases.aplt<ApltDatabase>(tenant);
  const twoFactor = await findTwoFactor(db, input.email);
  const byApp = twoFactor?.enabled === true && twoFactor.method === 'authenticator';
  if ('resend' in input) {
    if (byApp)
      throw conflict('No code is e-mailed: use the code from your authenticator app or a recovery code', {
        method: 'authenticator',
      });
    const customer = await findCustomer(
      deps.databases.commerce<CommerceDatabase>(tenant),
      pending.customer_id,
    );
    await sendOtp(deps, tenant, input.email, {
      preferred: preferredOf(customer?.metadata),
      requested: input.lang,
    });
    return { kind: 'resent' };
  }
  const failed = await recentFailedAttempts(db, input.email, OTP_ATTEMPT_WINDOW_MINUTES);
  if (failed.count >= OTP_MAX_FAILED_ATTEMPTS) {
    throw tooManyRequests('Too many wrong codes. Try again later.', failed.retryAfterSeconds);
  }
  const ok =
    'code' in input
      ? byApp
        ? await authenticatorCodeAccepted(deps, tenant, twoFactor, input.code)
        : await consumeOtpCode(db, input.email, input.code)
      : await consumeRecoveryCode(db, input.email, recoveryCodeHash(input.recovery_code));
  await recordOtpAttempt(db, { email: input.email, succeeded: ok, ip });
  if (!ok) throw unauthorized('Invalid code');
  return issueSession(deps, tenant, {
    customerId: pending.customer_id,
    authIdentityId: pending.auth_identity_id,
    rememberMe: pending.remember_me,
    // Dated from before the check above, so a reset in between still revokes it.
    issuedAtMs: startedAt,
  });
}

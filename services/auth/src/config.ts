import { assertionEnv, env, httpEnv, jwtEnv, loadEnv, redisEnv, ServicePorts, smtpEnv } from '@aplt/config';
import { z } from 'zod';

export const configShape = {
  PORT: env.port(ServicePorts['auth']),
  ...httpEnv,
  ...jwtEnv,
  ...assertionEnv,
  ...redisEnv,
  ...smtpEnv,
  // Encrypts the customers' authenticator-app (TOTP) secrets at rest; no default: a published key
  // would let anyone with a database dump compute every customer's second factor.
  AUTH_TOTP_KEY: env.secret(),
  // Reset tokens live 15 minutes in Medusa v2; kept configurable for operators, not for tests.
  RESET_TOKEN_TTL_SECONDS: env.int(900),
  // Storefront session cookie lifetime (spec: 7 days) and with remember-me (30 days).
  CUSTOMER_SESSION_DAYS: env.int(7),
  CUSTOMER_REMEMBER_DAYS: env.int(30),
  // E-mail verification links stay valid this long.
  VERIFY_TOKEN_TTL_HOURS: env.int(48),
  // Admin and customer emailpass: an account (tenant + e-mail, known or not) that failed this many
  // times within the window is refused, even with the right password, until the window ends.
  AUTH_LOCKOUT_MAX_FAILURES: env.int(10),
  AUTH_LOCKOUT_WINDOW_SECONDS: env.int(900),
  // Login, OTP and reset routes: at most this many requests per window per client and tenant host.
  LOGIN_RATE_MAX: env.int(10),
  LOGIN_RATE_WINDOW_SECONDS: env.int(60),
  // Run the mail worker (queue `mail` -> SMTP) in this process; off where a dedicated one runs.
  MAIL_WORKER: env.bool(true),
  // A deleted storefront account's personal data is anonymised this many days after the soft
  // delete (spec 1: 30); documents keep their own copies.
  ACCOUNT_ANONYMISE_AFTER_DAYS: z.coerce.number().int().min(0).max(3650).default(30),
  // Run the account worker (queue `customer-accounts`: anonymisation) in this process.
  ACCOUNT_WORKER: env.bool(true),
};

export type Config = ReturnType<typeof loadConfig>;
export const loadConfig = (source: Record<string, string | undefined> = process.env) =>
  loadEnv(configShape, source);

import { env, httpEnv, loadEnv, mysqlEnv, ServicePorts, serviceTokenEnv, smtpEnv } from '@aplt/config';

export const configShape = {
  PORT: env.port(ServicePorts.portal),
  ...httpEnv,
  ...mysqlEnv,
  ...smtpEnv,
  // Bearer token of the devprojects service's internal API (the fleet's one service token).
  ...serviceTokenEnv,
  // Spec 1 (limits): a portal session lives 30 days.
  PORTAL_SESSION_DAYS: env.int(30),
  // Lifetime and tries of the e-mailed second-factor code.
  PORTAL_OTP_TTL_SECONDS: env.int(600),
  PORTAL_OTP_MAX_ATTEMPTS: env.int(5),
  // Messaging channel of the code: e-mail (SMTP), a messaging gateway (PORTAL_OTP_WEBHOOK_URL gets
  // {email, code, expires_in}), or 'log' for a local demo without a mail server.
  PORTAL_OTP_CHANNEL: env.oneOf(['email', 'webhook', 'log'] as const, 'email'),
  PORTAL_OTP_WEBHOOK_URL: env.optionalStr(),
  // Login attempts that may be checked per e-mail within the window before login answers 429 (per
  // client address: five times that). Each attempt is counted before its password is checked.
  PORTAL_LOGIN_MAX_FAILURES: env.int(10),
  PORTAL_LOGIN_WINDOW_SECONDS: env.int(900),
  // bcrypt cost for new password hashes (spec 1: portal passwords are bcrypt).
  PORTAL_BCRYPT_ROUNDS: env.int(12),
  // Public address of the portal for deep links; by default the address the request came in on.
  PORTAL_PUBLIC_URL: env.optionalStr(),
  // The devprojects service's internal API (create a project from a ticket), called with SERVICE_TOKEN.
  DEVPROJECTS_URL: env.str(`http://127.0.0.1:${ServicePorts.devprojects}`),
};

export type Config = ReturnType<typeof loadConfig>;
export const loadConfig = (source: Record<string, string | undefined> = process.env) =>
  loadEnv(configShape, source);

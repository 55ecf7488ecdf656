import { env, httpEnv, loadEnv, pgEnv, redisEnv, ServicePorts, smtpEnv } from '@aplt/config';

export const configShape = {
  // Spec 2: the access service listens internally on 3334.
  PORT: env.port(ServicePorts.access),
  ...httpEnv,
  ...pgEnv,
  ...redisEnv,
  ...smtpEnv,
  // The access service's own database (users, sessions, device tokens, whitelist, licenses).
  PG_DB: env.str('access'),
  // Always-allowed client ranges, merged with the whitelist table: the machine itself must pass
  // without a database row (health checks, the fleet's own tools, other services' tests).
  ACCESS_STATIC_WHITELIST: env.cidrList(['127.0.0.1/32', '::1/128']),
  // Public base URL of the login host; unset: derived as access.<parent domain of the request host>.
  ACCESS_PUBLIC_URL: env.optionalStr(),
  // Domains a post-login return URL may point to (the host or any subdomain); blocks open redirects.
  ACCESS_RETURN_DOMAINS: env.list(['localhost']),
  // Cookie Domain so one login covers every tenant host (e.g. .aplt.example); unset: host-only.
  ACCESS_COOKIE_DOMAIN: env.optionalStr(),
  // 'page': a browser gets the 401 denied page with a login link; 'redirect': a 302 to the login.
  ACCESS_DENIED_MODE: env.oneOf(['page', 'redirect'], 'page'),
  // Shop hosts (shop.<tenant>.<domain> of a registered tenant): 'public' lets every visitor reach
  // the storefront, whose gatekeeper decides by address (spec 1: /toegang must be reachable);
  // 'protected' applies the backends' rule (whitelist or a staff login) there too.
  ACCESS_SHOP_POLICY: env.oneOf(['public', 'protected'], 'public'),
  // Session lifetime.
  ACCESS_SESSION_HOURS: env.int(12),
  // A session unused this long is dead even before it expires (an abandoned browser).
  ACCESS_SESSION_IDLE_MINUTES: env.int(120),
  // Spec 2: device tokens are valid 30 days.
  ACCESS_DEVICE_TOKEN_DAYS: env.int(30),
  // Spec 2: passwords expire after 28 days and must then be changed at the next login.
  ACCESS_PASSWORD_MAX_AGE_DAYS: env.int(28),
  // No reuse of the last N passwords.
  ACCESS_PASSWORD_HISTORY: env.int(5),
  // Brute-force protection: this many failures within the window bans the account or IP.
  ACCESS_MAX_FAILURES: env.int(5),
  ACCESS_FAILURE_WINDOW_SECONDS: env.int(600),
  ACCESS_BAN_SECONDS: env.int(900),
  // HMAC key of the proof-of-work CAPTCHA. No default: a published key lets anyone forge solutions.
  ACCESS_CAPTCHA_SECRET: env.secret(),
  // Encrypts the authenticator-app (TOTP) secrets in the user table. No default; changing it
  // makes every enrolled authenticator unusable (their users sign in with a recovery code).
  ACCESS_TOTP_KEY: env.secret(),
  // Ed25519 key (PKCS#8 DER, base64) that signs the identity assertion of every allow; backends
  // verify it with ACCESS_ASSERTION_PUBLIC_KEY.
  ACCESS_ASSERTION_PRIVATE_KEY: env.key(),
  // Other services read the license API with this bearer token (no session of their own).
  SERVICE_TOKEN: env.secret(),
  // Upper bound of the PoW search space: the average client cost is half of it in SHA-256 rounds.
  ACCESS_CAPTCHA_MAX_NUMBER: env.int(50_000),
  // Second factor channel: e-mail over SMTP, a webhook that receives {email, code}, or (development
  // without a mail server) the service log.
  ACCESS_OTP_CHANNEL: env.oneOf(['email', 'webhook', 'log'], 'email'),
  ACCESS_OTP_WEBHOOK_URL: env.optionalStr(),
  // One-time codes expire quickly; a stolen code is useless after this.
  ACCESS_OTP_TTL_SECONDS: env.int(600),
  // Sessions and device tokens are cached in memory this long, so /api/validate rarely hits Postgres.
  ACCESS_CACHE_SECONDS: env.int(5),
  // Push license changes to backends over Redis pub/sub (off: they poll every 60 s).
  LICENSE_PUSH: env.bool(true),
};

export type Config = ReturnType<typeof loadConfig>;
export const loadConfig = (source: Record<string, string | undefined> = process.env) =>
  loadEnv(configShape, source);

import { z } from 'zod';
import { bool, cidrList, int, key, logLevel, optionalStr, port, secret, str } from './fields';

/** Postgres server that holds the control plane, access and (by default) every tenant database. */
export const pgEnv = {
  PG_HOST: str('127.0.0.1'),
  PG_PORT: port(5432),
  PG_USER: str('postgres'),
  // Local servers use trust authentication; containers set a password.
  PG_PASS: optionalStr(),
  // The control-plane database with the tenant registry that every service reads.
  CONTROL_DB: str('control'),
};

/**
 * How long a Postgres pool waits for a connection (a free client counts too) before the request
 * fails with a 503. Read by every pool (`createPgDb`) from the process environment; the tests
 * raise it, since a fleet under a loaded two-core machine can take longer than 5 s to connect.
 */
export const pgPoolEnv = {
  PG_CONNECT_TIMEOUT_MS: int(5_000).pipe(z.number().min(100).max(600_000)),
};

/**
 * Server of the tenants' aplt databases where a registry row names none (spec 1: "the connection
 * is configured by environment variables prefixed APLT_DB_"). Each unset field falls back to its
 * PG_* twin, so by default the aplt databases live beside everything else. Every reader
 * (services) and writer (`pnpm migrate`, `pnpm tenant:add`, the fleet's seeds) reads them alike.
 */
export const apltDbEnv = {
  APLT_DB_HOST: optionalStr(),
  APLT_DB_PORT: port().optional(),
  APLT_DB_USER: optionalStr(),
  APLT_DB_PASSWORD: optionalStr(),
};

/** MariaDB/MySQL server of the customer portal. */
export const mysqlEnv = {
  MYSQL_HOST: str('127.0.0.1'),
  MYSQL_PORT: port(3306),
  MYSQL_USER: str('root'),
  MYSQL_PASSWORD: optionalStr(),
  PORTAL_DB: str('portal'),
};

export const redisEnv = {
  REDIS_URL: str('redis://127.0.0.1:6379'),
  // Every queue and key lives under this prefix, so tests and fleets can share one Redis.
  REDIS_PREFIX: str('aplt'),
};

export const httpEnv = {
  HOST: str('127.0.0.1'),
  LOG_LEVEL: logLevel(),
  // Pretty logs for humans at a terminal; JSON for machines.
  LOG_PRETTY: bool(false),
  // Addresses of proxies whose X-Forwarded-* headers are believed (CIDR list).
  TRUSTED_PROXIES: cidrList(['127.0.0.1/32', '::1/128']),
};

export const jwtEnv = {
  // Master secret; each tenant signs with a key derived from it, so a token never crosses tenants.
  JWT_SECRET: secret(),
  JWT_TTL_SECONDS: int(86400),
};

/** What every tenant backend needs to trust a request: only the access service's signature. */
export const assertionEnv = {
  // Public half of the access service's Ed25519 key; requests without an assertion it signed are refused.
  ACCESS_ASSERTION_PUBLIC_KEY: key(),
};

/** The bearer token services present to each other's internal routes (never routed by the proxy). */
export const serviceTokenEnv = {
  SERVICE_TOKEN: secret(),
};

export const smtpEnv = {
  SMTP_HOST: str('127.0.0.1'),
  // 587 with STARTTLS is the submission port the spec names; never implicit TLS.
  SMTP_PORT: port(587),
  SMTP_USER: optionalStr(),
  MAIL_PASSWORD: optionalStr(),
  MAIL_FROM_NAME: str('APLT Platform'),
  MAIL_FROM_ADDRESS: str('no-reply@aplt.localhost'),
  // Loopback test servers use self-signed certificates.
  SMTP_TLS_REJECT_UNAUTHORIZED: bool(true),
  // STARTTLS is required in production; a local catch-all SMTP without TLS may switch it off.
  SMTP_REQUIRE_TLS: bool(true),
};

export const licenseEnv = {
  LICENSE_API_URL: str('http://127.0.0.1:3334'),
  // Spec 2's single-tenant form: the tenant this backend is deployed for. Its licenses are fetched
  // from the start and TENANT_FEATURES is its list only; unset, every registry tenant is served
  // alike (spec default 'unknown' would name no tenant of the registry).
  TENANT_ID: optionalStr(),
  // Legacy bootstrap list of enabled features, used only when neither API nor snapshot answered:
  // TENANT_ID's when that is set, else every tenant's.
  TENANT_FEATURES: optionalStr(),
  // Where license snapshots are written (features-{tenant_id}.json).
  LICENSE_CACHE_DIR: str('.cache'),
  LICENSE_REFRESH_SECONDS: int(60),
};

/** The default servers of tenant databases: commerce on PG_*, aplt on APLT_DB_* over PG_*. */
export function tenantServersFromEnv(e: {
  PG_HOST: string;
  PG_PORT: number;
  PG_USER: string;
  PG_PASS?: string | undefined;
  APLT_DB_HOST?: string | undefined;
  APLT_DB_PORT?: number | undefined;
  APLT_DB_USER?: string | undefined;
  APLT_DB_PASSWORD?: string | undefined;
}) {
  const commerce = pgAddressFromEnv(e);
  return {
    commerce,
    aplt: {
      host: e.APLT_DB_HOST ?? commerce.host,
      port: e.APLT_DB_PORT ?? commerce.port,
      user: e.APLT_DB_USER ?? commerce.user,
      password: e.APLT_DB_PASSWORD ?? commerce.password,
    },
  };
}

export function pgAddressFromEnv(e: {
  PG_HOST: string;
  PG_PORT: number;
  PG_USER: string;
  PG_PASS?: string | undefined;
}) {
  return { host: e.PG_HOST, port: e.PG_PORT, user: e.PG_USER, password: e.PG_PASS };
}

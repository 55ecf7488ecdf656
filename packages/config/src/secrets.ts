import { generateKeyPairSync, randomBytes } from 'node:crypto';

/**
 * Values that were ever published in this repository as defaults or examples. A service refuses
 * to start with any of them: anyone who read the source could mint tokens or pass the CAPTCHA.
 * Test suites and the start command generate their own secrets (`generateSecrets`).
 */
export const publishedSecrets: ReadonlySet<string> = new Set([
  'dev-only-jwt-secret-change-me',
  'dev-only-captcha-secret-change-me',
  'dev-only-devprojects-service-token',
  'dev-only-callback-secret-change-me',
  'auth-test-secret',
  'change-me',
  'changeme',
  'secret',
]);

/** Shortest secret accepted: 32 characters (the generator makes 43 base64url characters, 256 bits). */
export const MIN_SECRET_LENGTH = 32;

/** Why a secret value is refused, or undefined when it is acceptable. */
export function secretProblem(value: string): string | undefined {
  if (value.length < MIN_SECRET_LENGTH) return `must be at least ${MIN_SECRET_LENGTH} characters`;
  if (publishedSecrets.has(value) || /change-?me|dev-only|example/i.test(value))
    return 'is a published or placeholder value; generate one (deploy/secrets.ts)';
  if (new Set(value).size < 8) return 'has too little variety to be random';
  return undefined;
}

/** Every secret the fleet needs, made fresh: per checkout by the start command, per file by tests. */
export interface FleetSecrets {
  /** Master key of tenant JWTs (admin and customer tokens). */
  JWT_SECRET: string;
  /** Bearer token services present to each other on internal routes (license API, dev projects). */
  SERVICE_TOKEN: string;
  /** HMAC key of the access login's proof-of-work CAPTCHA. */
  ACCESS_CAPTCHA_SECRET: string;
  /** Key that encrypts the access users' authenticator-app (TOTP) secrets at rest. */
  ACCESS_TOTP_KEY: string;
  /** Key that encrypts the storefront customers' authenticator-app (TOTP) secrets (auth service). */
  AUTH_TOTP_KEY: string;
  /** Ed25519 key (PKCS#8 DER, base64) with which the access service signs identity assertions. */
  ACCESS_ASSERTION_PRIVATE_KEY: string;
  /** Its public half (SPKI DER, base64): every tenant backend verifies assertions with it. */
  ACCESS_ASSERTION_PUBLIC_KEY: string;
  /** Default signing secret of logo-modal callbacks to webshops. */
  CALLBACK_DEFAULT_SECRET: string;
}

export const secretNames = [
  'JWT_SECRET',
  'SERVICE_TOKEN',
  'ACCESS_CAPTCHA_SECRET',
  'ACCESS_TOTP_KEY',
  'AUTH_TOTP_KEY',
  'ACCESS_ASSERTION_PRIVATE_KEY',
  'ACCESS_ASSERTION_PUBLIC_KEY',
  'CALLBACK_DEFAULT_SECRET',
] as const satisfies ReadonlyArray<keyof FleetSecrets>;

const random = () => randomBytes(32).toString('base64url');

export function generateSecrets(): FleetSecrets {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    JWT_SECRET: random(),
    SERVICE_TOKEN: random(),
    ACCESS_CAPTCHA_SECRET: random(),
    ACCESS_TOTP_KEY: random(),
    AUTH_TOTP_KEY: random(),
    ACCESS_ASSERTION_PRIVATE_KEY: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
    ACCESS_ASSERTION_PUBLIC_KEY: publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
    CALLBACK_DEFAULT_SECRET: random(),
  };
}

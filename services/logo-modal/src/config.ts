import { env, httpEnv, loadEnv, redisEnv, secretProblem, ServicePorts } from '@aplt/config';
import { z } from 'zod';
import { isValidNetwork } from './callbacks/ssrf';

const origin = z
  .url()
  .refine((v) => new URL(v).origin === v, 'expected an origin like https://shop.example.com');

export const configShape = {
  PORT: env.port(ServicePorts['logo-modal']),
  ...httpEnv,
  ...redisEnv,
  // Local directory of the file store (uploaded logos, screenshots, proofs).
  FILE_STORE_DIR: env.str('.run/files'),
  // The one local development origin allowed to embed the modal and call the API (the demo shop behind the local proxy).
  MODAL_DEV_ORIGIN: origin.default('http://modal.localhost:8080'),
  // The four production webshop origins allowed to embed the modal and call the API (spec 3: five origins in all).
  MODAL_PRODUCTION_ORIGINS: env
    .list([
      'https://www.aplt-promo.nl',
      'https://shop.aplt-promo.de',
      'https://b2b.aplt-promo.eu',
      'https://webshop.aplt-promo.be',
    ])
    .pipe(z.array(origin).length(4, 'expected exactly four production origins')),
  // Absolute address of this service as webshops see it; unset: taken from the request (Host, X-Forwarded-*).
  MODAL_PUBLIC_URL: env.url().optional(),
  // Callback signing secrets per integration (`source=secret,...`); an integration without an entry
  // uses the default. Each secret must be a real one (32+ characters, never a published value).
  CALLBACK_SECRETS: env
    .list([])
    .pipe(z.array(z.string().superRefine(checkIntegrationSecret)))
    .describe(env.SECRET),
  // Signing secret of integrations without their own entry in CALLBACK_SECRETS (required; the
  // start command generates it into .run/secrets.env).
  CALLBACK_DEFAULT_SECRET: env.secret(),
  // Networks (CIDR, or single addresses) that callbacks may reach although they are not public
  // unicast, e.g. `127.0.0.0/8,::1/128` for a receiver on this machine in tests and local
  // development. Empty by default: callbacks go only to public addresses.
  CALLBACK_ALLOWED_NETWORKS: env
    .list([])
    .pipe(z.array(z.string().refine(isValidNetwork, 'expected a CIDR like 127.0.0.0/8 or an IP address'))),
  // Per-attempt timeout of a callback POST.
  CALLBACK_TIMEOUT_MS: env.int(10_000),
  // Writes (create, upload, Add to Order, PDF) per client IP and minute: the modal host is public.
  WRITE_RATE_LIMIT_PER_MINUTE: env.int(60),
  // Largest accepted logo upload.
  UPLOAD_MAX_BYTES: env.int(5 * 1024 * 1024),
  // Headless Chromium that prints proofs and EPS sources to PDF (vector SVG stays vector).
  CHROMIUM_PATH: env.str('/usr/bin/chromium-headless-shell'),
  // Ghostscript converts the vector logo PDF to EPS.
  GHOSTSCRIPT_PATH: env.str('gs'),
  // Directory holding product SVG templates named by aplt_*.svg_template_path when that is a relative path.
  SVG_TEMPLATE_DIR: env.str('.run/svg-templates'),
  // Drafts never ordered (abandoned modals) are cancelled and their uploaded logos deleted after this many hours.
  DRAFT_TTL_HOURS: env.int(24),
  // Start the callback and draft-purge workers inside the HTTP process (the local fleet has no
  // separate worker process).
  CALLBACK_WORKER: env.bool(true),
};

function checkIntegrationSecret(entry: string, ctx: z.RefinementCtx) {
  const eq = entry.indexOf('=');
  if (eq <= 0) return ctx.addIssue({ code: 'custom', message: 'expected source=secret' });
  const problem = secretProblem(entry.slice(eq + 1));
  // Names the integration, never the secret.
  if (problem) ctx.addIssue({ code: 'custom', message: `secret of ${entry.slice(0, eq)} ${problem}` });
}

export type Config = ReturnType<typeof loadConfig>;
export const loadConfig = (source: Record<string, string | undefined> = process.env) =>
  loadEnv(configShape, source);

/** The five origins (spec 3) that may embed the modal, receive its messages and call the API. */
export const allowedOrigins = (config: Config): string[] => [
  config.MODAL_DEV_ORIGIN,
  ...config.MODAL_PRODUCTION_ORIGINS,
];

/** Signing secret of an integration (the `source` parameter of the modal). */
export function callbackSecret(config: Config, integration: string): string {
  for (const entry of config.CALLBACK_SECRETS) {
    const eq = entry.indexOf('=');
    if (eq > 0 && entry.slice(0, eq) === integration) return entry.slice(eq + 1);
  }
  return config.CALLBACK_DEFAULT_SECRET;
}

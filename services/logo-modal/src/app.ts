import cors from '@fastify/cors';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import { createApp, pingPg, type TenantContext } from '@aplt/http';
import type { QueueClient, Redis } from '@aplt/queue';
import { JSON_BODY_LIMIT } from './body-limits';
import { CallbackTargets } from './callbacks/ssrf';
import { catalogRoutes } from './catalog/catalog.routes';
import { allowedOrigins, type Config } from './config';
import { fileRoutes } from './files/file.routes';
import { type FileStore, LocalFileStore } from './files/file-store';
import { pageRoutes } from './pages/page.routes';
import { BrowserPool } from './render/browser';
import { transactionRoutes } from './transactions/transaction.routes';
import { purgeStaleDrafts } from './transactions/transaction.service';

declare module 'fastify' {
  interface FastifyInstance {
    /** Cancels abandoned drafts and deletes their files (server.ts runs it hourly). */
    purgeStaleDrafts(): Promise<number>;
  }
}

export type Deps = Pick<TenantContext, 'registry' | 'databases' | 'control'> & {
  queue: QueueClient;
  /** Where the write rate limit counts, so every replica shares one count per client. */
  redis: Redis;
  /** Defaults to the local directory FILE_STORE_DIR. */
  store?: FileStore;
};

/** Builds the logo modal service; it reads the master tenant's catalog. Never listens. */
export async function buildApp(deps: Deps, config: Config) {
  const app = await createApp({
    name: 'logo-modal',
    logLevel: config.LOG_LEVEL,
    prettyLogs: config.LOG_PRETTY,
    trustedProxies: config.TRUSTED_PROXIES,
    // Every JSON body of this API is small (the largest, a transaction, is a few kB).
    bodyLimit: JSON_BODY_LIMIT,
  });
  const origins = allowedOrigins(config);
  // Cross-origin API access only for the five configured webshop origins (spec 3, authentication).
  await app.register(cors, { origin: origins, methods: ['GET', 'POST', 'DELETE'], maxAge: 600 });
  // Only routes that opt in (the writes) are limited; reads of files stay unlimited. The counts
  // live in Redis: with replicas behind the proxy, a per-process count would multiply the limit.
  await app.register(rateLimit, {
    global: false,
    redis: deps.redis,
    nameSpace: `${config.REDIS_PREFIX}:modal-rl:`,
  });
  // One file and nothing else of size: the upload route takes only the field "file".
  await app.register(multipart, {
    limits: { fileSize: config.UPLOAD_MAX_BYTES, files: 1, fields: 10, fieldSize: 1024, parts: 12 },
  });
  const callbackTargets = new CallbackTargets(config.CALLBACK_ALLOWED_NETWORKS);

  const browser = new BrowserPool(config.CHROMIUM_PATH);
  const txDeps = {
    registry: deps.registry,
    databases: deps.databases,
    store: deps.store ?? new LocalFileStore(config.FILE_STORE_DIR),
    browser,
    queue: deps.queue,
    config,
    callbackTargets,
  };
  catalogRoutes(app, deps, config);
  transactionRoutes(app, txDeps);
  fileRoutes(app, txDeps, ["'self'", ...origins].join(' '));
  pageRoutes(app, { allowedOrigins: origins });

  app.decorate('purgeStaleDrafts', () => purgeStaleDrafts(txDeps));
  app.addReadinessCheck('control-db', () => pingPg(deps.control));
  app.addHook('onClose', async () => {
    callbackTargets.close();
    await browser.close();
  });
  return app;
}

import { randomUUID } from 'node:crypto';
import type { TenantRegistry } from '@aplt/db';
import type { FeatureSource } from '@aplt/licensing';
import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyServerOptions,
  type RawServerDefault,
} from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { bodyDrainPlugin } from './body-drain';
import { errorHandlerPlugin } from './error-handler';
import { healthPlugin } from './health';
import { licenseGuardPlugin } from './license-guard';
import { createLogger } from './logger';
import { type OperatorOptions, operatorPlugin } from './operator-plugin';
import { jsonDepthPlugin, stringInputPlugin } from './string-input';
import { tenantPlugin } from './tenant-plugin';
import { trustPlugin } from './trust-plugin';

export type App = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Answers GET/HEAD `path` on the raw server. Only for a route whose cost per request matters
     * more than the framework's conveniences: the handler sets its own request id, logs and
     * error bodies. Requests through inject() do not see it; register a route that delegates too.
     */
    addFastPath(path: string, handler: FastPathHandler): void;
  }
}

// Fastify types these factories by its own ajv and fast-json-stringify compilers; the zod ones are
// called the same way, with the route's schema.
const zodCompilers = {
  buildValidator: () => validatorCompiler,
  buildSerializer: () => serializerCompiler,
} as unknown as NonNullable<FastifyServerOptions['schemaController']>['compilersFactory'];

export interface AppOptions {
  /** Service name: log field and OpenAPI title. */
  name: string;
  logLevel?: string;
  prettyLogs?: boolean;
  /** Where log lines go: a file path or descriptor (default stdout), written asynchronously. */
  logDestination?: string | number;
  /** Proxies whose X-Forwarded-* headers are believed; request.ip is then the real client. */
  trustedProxies?: string[];
  /**
   * Resolve request.tenant from the Host header: a tenant backend. Such an app also demands the
   * access service's identity assertion on every tenant route, so `assertionPublicKey` is required.
   */
  registry?: TenantRegistry;
  /** Public key (SPKI DER, base64) of the access service's identity assertions. */
  assertionPublicKey?: string;
  /** Bearer token of this service's internal routes (`config.serviceToken`). */
  serviceToken?: string;
  /** Who may read `/docs` and `/metrics` (see operator-plugin). */
  operators?: OperatorOptions;
  /** Guard routes by the route-to-feature map. Needs `registry`. */
  licenses?: FeatureSource;
  /** Master secret for tenant JWTs (admin and customer tokens). */
  jwtSecret?: string;
  bodyLimit?: number;
  docs?: boolean;
  /** Fastify's `rewriteUrl`: a new URL before routing (devprojects: preview hosts to their one route). */
  rewriteUrl?: (req: IncomingMessage) => string;
}

/** Answers one request on the raw Node server, before Fastify's router, hooks and logger. */
export type FastPathHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** Builds a service's Fastify instance with the fleet's conventions; never listens. */
export async function createApp(opts: AppOptions): Promise<App> {
  // GET paths answered on the raw server (see App.addFastPath). Consulted before Fastify, so a
  // route called on every request of the fleet (forward auth) does not pay for the framework.
  const fastPaths = new Map<string, FastPathHandler>();
  const app = Fastify({
    serverFactory: (handler) =>
      createServer((req, res) => {
        const url = req.url ?? '/';
        const q = url.indexOf('?');
        const fast = fastPaths.size ? fastPaths.get(q < 0 ? url : url.slice(0, q)) : undefined;
        if (fast && (req.method === 'GET' || req.method === 'HEAD')) fast(req, res);
        else handler(req, res);
      }),
    loggerInstance: createLogger({
      name: opts.name,
      level: opts.logLevel,
      pretty: opts.prettyLogs,
      destination: opts.logDestination,
    }) as FastifyBaseLogger,
    // One line per request at info, written when the response is done (the hooks below);
    // Fastify's own incoming/completed pair is the debug level's.
    logController: new LogController({ disableRequestLogging: true }),
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    trustProxy: opts.trustedProxies ?? ['127.0.0.1/32', '::1/128'],
    bodyLimit: opts.bodyLimit ?? 1_048_576,
    // While closing, a request that still arrives on an open keep-alive connection is served (with
    // `Connection: close`), not answered 503: the proxy already sends new ones to another replica.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    // Every route validates and serializes with zod. Naming the compilers here, not with
    // setValidatorCompiler, keeps Fastify from loading its defaults (ajv with its formats and
    // fast-json-stringify, some 100 modules) only for them to sit unused in every process.
    schemaController: { compilersFactory: zodCompilers },
    ...(opts.rewriteUrl ? { rewriteUrl: opts.rewriteUrl } : {}),
  }).withTypeProvider<ZodTypeProvider>();

  // A callback hook, not an async one: it runs on every request, and a promise each costs.
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    if (request.log.level === 'debug' || request.log.level === 'trace')
      request.log.debug({ method: request.method, url: request.url, ip: request.ip }, 'incoming request');
    done();
  });
  // The request's one line at info: what was asked, the answer and how long it took.
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      {
        method: request.method,
        url: request.url,
        statusCode: reply.statusCode,
        responseTime: Math.round(reply.elapsedTime * 100) / 100,
      },
      'request completed',
    );
    done();
  });
  app.decorate('jwtSecret', opts.jwtSecret);
  app.decorate('addFastPath', (path: string, fast: FastPathHandler) => {
    fastPaths.set(path, fast);
  });
  app.decorateRequest('actor', null);

  await app.register(errorHandlerPlugin);
  // Over-limit bodies are read to their end before the 413 goes out (see body-drain.ts).
  await app.register(bodyDrainPlugin);
  await app.register(stringInputPlugin);
  await app.register(jsonDepthPlugin);
  await app.register(cookie);
  if (opts.registry) {
    if (!opts.assertionPublicKey) throw new Error(`${opts.name}: a tenant backend needs assertionPublicKey`);
    await app.register(trustPlugin, {
      assertionPublicKey: opts.assertionPublicKey,
      serviceToken: opts.serviceToken,
    });
  }
  // Before the docs register their routes: the plugin marks them as operator routes.
  await app.register(operatorPlugin, opts.operators ?? {});
  if (opts.docs !== false) {
    await app.register(swagger, {
      openapi: { info: { title: `${opts.name} service`, version: '1.0.0' } },
      transform: jsonSchemaTransform,
    });
    await app.register(swaggerUi, { routePrefix: '/docs' });
  }
  await app.register(healthPlugin);
  if (opts.registry) {
    await app.register(tenantPlugin, { registry: opts.registry });
    if (opts.licenses) await app.register(licenseGuardPlugin, { licenses: opts.licenses });
  }
  return app;
}

/** What a tenant backend's config holds for createApp (the shared env of @aplt/config). */
export interface TenantAppConfig {
  LOG_LEVEL: string;
  LOG_PRETTY: boolean;
  TRUSTED_PROXIES: string[];
  JWT_SECRET: string;
  ACCESS_ASSERTION_PUBLIC_KEY: string;
}

/**
 * createApp for a tenant backend: its name, the logging, trusted proxies, JWT secret and assertion
 * key of its config, and the registry and licenses it serves; `extra` adds what only it needs.
 */
export function createTenantApp(
  name: string,
  deps: { registry: TenantRegistry; licenses: FeatureSource },
  config: TenantAppConfig,
  extra: Omit<Partial<AppOptions>, 'name' | 'registry' | 'licenses'> = {},
): Promise<App> {
  return createApp({
    name,
    logLevel: config.LOG_LEVEL,
    prettyLogs: config.LOG_PRETTY,
    trustedProxies: config.TRUSTED_PROXIES,
    registry: deps.registry,
    licenses: deps.licenses,
    jwtSecret: config.JWT_SECRET,
    assertionPublicKey: config.ACCESS_ASSERTION_PUBLIC_KEY,
    ...extra,
  });
}

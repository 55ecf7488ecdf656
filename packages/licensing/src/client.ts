import { randomBytes } from 'node:crypto';
import { env, licenseEnv, loadEnv, redisEnv, ServiceEndpoints } from '@aplt/config';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { type FeatureKey, featureKeys, isFeatureKey } from './catalog';
import { licenseChannel, type LicenseChangedMessage } from './channel';
import { readSnapshot, writeSnapshot } from './snapshot';
import type { FeatureSource, FeatureStatus } from './source';
import { allFeaturesSource } from './source';

/** A license client as every backend holds it: a FeatureSource plus its lifecycle. */
export interface LicenseClient extends FeatureSource {
  /** Loads snapshots and starts refreshing for the given tenants (more may be added later). */
  start(tenantIds: string[]): Promise<void>;
  close(): Promise<void>;
  /** Fetch now (what a push does); resolves when the tenant's state is settled. */
  refresh?(tenantId: string): Promise<void>;
}

export interface LicenseLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface LicenseClientOptions {
  /** The license API (the access service); several replicas comma-separated, tried in turn. */
  apiUrl: string;
  cacheDir: string;
  /** Legacy TENANT_FEATURES list; undefined when the variable is not set. */
  envFeatures?: string | undefined;
  /**
   * TENANT_ID, spec 2's single-tenant form: the tenant this backend was deployed for. Its
   * licenses are loaded and refreshed from the start even when the registry does not list it,
   * and envFeatures is that tenant's list only. Undefined: the registry form, where envFeatures
   * is the bootstrap list of every tenant the process serves.
   */
  tenantId?: string | undefined;
  refreshSeconds: number;
  /**
   * The fleet's SERVICE_TOKEN, sent as `Authorization: Bearer`: the license API answers only
   * sessions and services. Without it the API answers 401 and the client keeps what is in force.
   */
  serviceToken?: string | undefined;
  /** Redis for push invalidation; null turns push off (polling only). */
  redis: { url: string; prefix: string } | null;
  fetchTimeoutMs?: number;
  logger?: LicenseLogger;
}

interface TenantState {
  /** null: all-features mode. */
  features: Set<FeatureKey> | null;
  status: FeatureStatus;
  etag: string | null;
  inFlight: Promise<void> | null;
  again: boolean;
}

const consoleLogger: LicenseLogger = {
  info: () => {},
  warn: (obj, msg) => console.warn(JSON.stringify({ level: 'warn', component: 'licensing', msg, ...obj })),
};

const apiBody = (body: unknown, revision: string | null) => {
  const b = body as { features?: unknown };
  if (!Array.isArray(b?.features)) throw new Error('license API answered without a features list');
  return {
    features: b.features.filter((f): f is FeatureKey => typeof f === 'string' && isFeatureKey(f)),
    revision,
  };
};

/**
 * The real multi-tenant license client. Per tenant: snapshot (read synchronously) -> TENANT_FEATURES
 * (only TENANT_ID's when that is set) -> all-features mode as the starting point, then the license API replaces it and is re-asked
 * every refresh interval and on every push. A failed fetch keeps whatever is in force, so an
 * outage never broadens access.
 */
export class HttpLicenseClient implements LicenseClient {
  private readonly states = new Map<string, TenantState>();
  private timer: NodeJS.Timeout | null = null;
  private sub: Redis | null = null;
  private closed = false;
  private readonly log: LicenseLogger;
  /** The license API's replicas, made again when `apiUrl` changes (tests point it elsewhere). */
  private endpoints: { source: string; replicas: ServiceEndpoints } | null = null;
  /** The push subscriber's name in Redis CLIENT LIST (operators and tests find it by this). */
  readonly connectionName = `license-client-${process.pid}-${randomBytes(3).toString('hex')}`;

  constructor(private readonly opts: LicenseClientOptions) {
    this.log = opts.logger ?? consoleLogger;
  }

  async start(registryTenantIds: string[]): Promise<void> {
    const { tenantId } = this.opts;
    const tenantIds =
      tenantId === undefined || registryTenantIds.includes(tenantId)
        ? registryTenantIds
        : [...registryTenantIds, tenantId];
    for (const id of tenantIds) this.ensure(id);
    if (!this.timer) {
      this.timer = setInterval(() => void this.refreshAll(), this.opts.refreshSeconds * 1000);
      this.timer.unref();
    }
    if (this.opts.redis && !this.sub) this.subscribe(this.opts.redis);
    await Promise.all(tenantIds.map((id) => this.refresh(id)));
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.sub?.disconnect();
    this.sub = null;
    await Promise.allSettled([...this.states.values()].map((s) => s.inFlight));
  }

  isFeatureEnabled(tenantId: string, feature: FeatureKey): boolean {
    const features = this.ensure(tenantId).features;
    return features === null || features.has(feature);
  }

  enabledFeatures(tenantId: string): FeatureKey[] {
    const features = this.ensure(tenantId).features;
    return features === null ? [...featureKeys] : featureKeys.filter((k) => features.has(k));
  }

  status(tenantId: string): FeatureStatus {
    return { ...this.ensure(tenantId).status };
  }

  /** Coalesces: a refresh asked for while one runs is done once more right after it. */
  refresh(tenantId: string): Promise<void> {
    const state = this.ensure(tenantId);
    if (state.inFlight) {
      state.again = true;
      return state.inFlight;
    }
    state.inFlight = (async () => {
      do {
        state.again = false;
        await this.fetchOnce(tenantId, state);
      } while (state.again && !this.closed);
    })().finally(() => {
      state.inFlight = null;
    });
    return state.inFlight;
  }

  private refreshAll(): Promise<unknown> {
    return Promise.allSettled([...this.states.keys()].map((id) => this.refresh(id)));
  }

  /** First sight of a tenant: the offline links of the fallback chain, synchronously. */
  private ensure(tenantId: string): TenantState {
    let state = this.states.get(tenantId);
    if (state) return state;
    const snapshot = readSnapshot(this.opts.cacheDir, tenantId);
    const base = { fetchedAt: null, lastError: null };
    if (snapshot) {
      state = {
        features: new Set(snapshot.features.filter(isFeatureKey)),
        status: { ...base, source: 'snapshot', revision: snapshot.revision, fetchedAt: snapshot.fetched_at },
        etag: snapshot.etag,
        inFlight: null,
        again: false,
      };
    } else if (
      this.opts.envFeatures !== undefined &&
      (this.opts.tenantId === undefined || this.opts.tenantId === tenantId)
    ) {
      const listed = this.opts.envFeatures.split(',').map((s) => s.trim());
      state = {
        features: new Set(listed.filter(isFeatureKey)),
        status: { ...base, source: 'env', revision: null },
        etag: null,
        inFlight: null,
        again: false,
      };
    } else {
      state = {
        features: null,
        status: { ...allFeaturesSource.status(tenantId) },
        etag: null,
        inFlight: null,
        again: false,
      };
    }
    this.states.set(tenantId, state);
    // A tenant first seen after start (registered later) is fetched at once, not at the next poll.
    if (this.timer && !this.closed) queueMicrotask(() => void this.refresh(tenantId));
    return state;
  }

  private async fetchOnce(tenantId: string, state: TenantState): Promise<void> {
    if (this.endpoints?.source !== this.opts.apiUrl)
      this.endpoints = { source: this.opts.apiUrl, replicas: new ServiceEndpoints(this.opts.apiUrl) };
    const path = `/api/license/${encodeURIComponent(tenantId)}`;
    const url = this.endpoints.replicas.urls.map((u) => `${u}${path}`).join(', ');
    try {
      const headers: Record<string, string> = {};
      if (this.opts.serviceToken) headers.authorization = `Bearer ${this.opts.serviceToken}`;
      if (state.etag && state.status.source === 'api') headers['if-none-match'] = state.etag;
      const res = await this.endpoints.replicas.fetch(path, {
        headers,
        timeoutMs: this.opts.fetchTimeoutMs ?? 5000,
      });
      if (res.status === 304) {
        state.status = { ...state.status, fetchedAt: new Date().toISOString(), lastError: null };
        return;
      }
      if (res.status === 404) {
        // The API knows no licenses for this tenant: keep what is in force, do not invent a set.
        await res.body?.cancel();
        state.status = { ...state.status, lastError: 'tenant has no licenses in the license API' };
        return;
      }
      if (res.status === 401 || res.status === 403) {
        // A refusal is no answer about the licenses: like an outage, it never broadens access.
        await res.body?.cancel();
        state.status = {
          ...state.status,
          lastError: `license API refused this service (${res.status}): check SERVICE_TOKEN`,
        };
        this.log.warn(
          { tenantId, url, status: res.status, source: state.status.source },
          'license API refused the service token; keeping the last known feature set',
        );
        return;
      }
      if (!res.ok) throw new Error(`license API answered ${res.status}`);
      const body = apiBody(await res.json(), res.headers.get('x-license-revision'));
      const etag = res.headers.get('etag');
      const fetchedAt = new Date().toISOString();
      state.features = new Set(body.features);
      state.etag = etag;
      state.status = { source: 'api', revision: body.revision, fetchedAt, lastError: null };
      try {
        writeSnapshot(this.opts.cacheDir, {
          tenant_id: tenantId,
          features: body.features,
          revision: body.revision,
          etag,
          fetched_at: fetchedAt,
        });
      } catch (err) {
        this.log.warn({ tenantId, err: String(err) }, 'could not write the license snapshot');
      }
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      state.status = { ...state.status, lastError: `license API unreachable: ${message}` };
      this.log.warn(
        { tenantId, url, err: message, source: state.status.source },
        'license API unreachable; keeping the last known feature set',
      );
    }
  }

  private subscribe(redis: { url: string; prefix: string }): void {
    const channel = licenseChannel(redis.prefix);
    // ioredis reconnects with backoff and re-subscribes on its own; 'ready' after a reconnect
    // also refreshes everything, because a message may have been missed while the link was down.
    const sub = new Redis(redis.url, {
      maxRetriesPerRequest: null,
      connectionName: this.connectionName,
      retryStrategy: (times) => Math.min(times * 100, 2000),
    });
    let connectedBefore = false;
    sub.on('error', (err: Error) => this.log.warn({ err: err.message }, 'license push channel error'));
    sub.on('ready', () => {
      if (connectedBefore) void this.refreshAll();
      connectedBefore = true;
    });
    sub.on('message', (_channel: string, raw: string) => {
      let msg: LicenseChangedMessage;
      try {
        msg = JSON.parse(raw) as LicenseChangedMessage;
      } catch {
        return;
      }
      if (msg.tenant_id === '*') void this.refreshAll();
      else if (this.states.has(msg.tenant_id)) void this.refresh(msg.tenant_id);
    });
    sub.subscribe(channel).catch((err: Error) => this.log.warn({ err: err.message }, 'subscribe failed'));
    this.sub = sub;
  }

  /** Whether the push channel is currently connected and subscribed. */
  get pushConnected(): boolean {
    return this.sub?.status === 'ready';
  }
}

/** The license client's variables: licenseEnv of @aplt/config, push and the fetch limit. */
const licenseClientEnv = {
  ...licenseEnv,
  ...redisEnv,
  // The services check their SERVICE_TOKEN themselves; without one the API refuses (401).
  SERVICE_TOKEN: env.optionalStr(),
  LICENSE_PUSH: env.bool(true),
  LICENSE_FETCH_TIMEOUT_MS: env.int(5000).pipe(z.number().min(1)),
};

/**
 * Builds the backend's license client from LICENSE_API_URL, SERVICE_TOKEN, TENANT_ID,
 * TENANT_FEATURES, LICENSE_CACHE_DIR, LICENSE_REFRESH_SECONDS and (for push) REDIS_URL/REDIS_PREFIX;
 * LICENSE_PUSH=false turns push off. A bad value throws a ConfigError naming the variable.
 */
export function createLicenseClientFromEnv(
  source: Record<string, string | undefined> = process.env,
  opts: { logger?: LicenseLogger } = {},
): LicenseClient {
  const e = loadEnv(licenseClientEnv, source);
  return new HttpLicenseClient({
    apiUrl: e.LICENSE_API_URL,
    serviceToken: e.SERVICE_TOKEN,
    cacheDir: e.LICENSE_CACHE_DIR,
    envFeatures: e.TENANT_FEATURES,
    tenantId: e.TENANT_ID,
    refreshSeconds: e.LICENSE_REFRESH_SECONDS,
    redis: e.LICENSE_PUSH ? { url: e.REDIS_URL, prefix: e.REDIS_PREFIX } : null,
    fetchTimeoutMs: e.LICENSE_FETCH_TIMEOUT_MS,
    ...(opts.logger ? { logger: opts.logger } : {}),
  });
}

/** A client that allows everything and never calls out: for tests that are not about licensing. */
export const allFeaturesClient: LicenseClient = {
  ...allFeaturesSource,
  start: async () => {},
  close: async () => {},
};

import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import {
  apltDbEnv,
  env,
  loadEnv,
  mysqlEnv,
  pgAddressFromEnv,
  pgEnv,
  type ServiceName,
  ServicePorts,
  tenantServersFromEnv,
} from '@aplt/config';
import {
  type AccessDatabase,
  type ControlDatabase,
  createMysqlDb,
  createPgDb,
  type Kysely,
  migrateFleet,
  sql,
  TenantDatabases,
  TenantRegistry,
} from '@aplt/db';
import { freePorts, localUpstreams, type RunningProxy, startCaddy } from '@aplt/proxy';
import { ensureSecretsFile, LOCAL_SECRETS_FILE } from '../secrets';
import { startMailCatcher, type MailCatcher } from './mail-catcher';
import { type FleetProcess, fleetProcesses, nodeArgs } from './manifest';
import { parseReplicas } from './replicas';
import { type SeedContext, seedSteps } from './seeds';
import { serviceMallocEnv } from './malloc-env';
import { ensureSeedMarkers, FLEET_SCOPE, readSeedMarkers, writeSeedMarkers } from './seed-markers';
import { Supervised } from './supervisor';

/**
 * How long a replicated service keeps serving after SIGTERM with /readyz at 503 before it refuses
 * connections: above Traefik's check interval (2 s); Caddy (passive only) moves its requests to
 * another replica once the connection is refused, and retries them there.
 */
export const FLEET_DRAIN_DELAY_MS = 2_500;

export type SeedMode = 'auto' | 'always' | 'never';

/** FLEET_SEED: auto (default; true/1/yes too), always, never (false/0/no too). */
export function seedModeOf(value: string): SeedMode {
  const v = value.trim().toLowerCase();
  if (['', 'auto', 'true', '1', 'yes', 'on'].includes(v)) return 'auto';
  if (v === 'always') return 'always';
  if (['never', 'false', '0', 'no', 'off'].includes(v)) return 'never';
  throw new Error(`FLEET_SEED must be auto, always or never (got ${JSON.stringify(value)})`);
}

/**
 * Runs the seed steps that the markers in the control DB say are missing (all of them when
 * `always`), marks what ran, and collects every step's banner lines. Returns the steps that ran.
 */
async function runSeedSteps(
  ctx: SeedContext,
  control: Kysely<ControlDatabase>,
  mode: SeedMode,
): Promise<string[]> {
  await ensureSeedMarkers(control);
  const ran: string[] = [];
  const skipped: string[] = [];
  for (const step of seedSteps) {
    const scopes =
      step.scope === 'fleet'
        ? [FLEET_SCOPE]
        : step.scopes
          ? await step.scopes(ctx)
          : (await ctx.registry.list()).map((t) => t.id);
    const done = await readSeedMarkers(control, step.name);
    const forced = mode === 'always' || (step.dependsOn ?? []).some((d) => ran.includes(d));
    const pending = forced ? scopes : scopes.filter((s) => (done.get(s)?.version ?? 0) < step.version);
    if (pending.length === 0) {
      skipped.push(step.name);
      continue;
    }
    ctx.log(`seed: running ${step.name} (${step.scope === 'fleet' ? 'fleet' : pending.join(', ')})`);
    await step.run(ctx, pending);
    await writeSeedMarkers(control, step.name, pending, step.version);
    ran.push(step.name);
  }
  for (const step of seedSteps) await step.notes?.(ctx);
  ctx.log(
    ran.length === 0
      ? `seed: already done, nothing to seed (${skipped.length} steps marked in the control DB; FLEET_SEED=always re-runs them)`
      : `seed: ${ran.length} step(s) ran, ${skipped.length} already done`,
  );
  return ran;
}

export const fleetEnvShape = {
  ...pgEnv,
  ...apltDbEnv,
  ...mysqlEnv,
  PG_DB: env.str('access'),
  // The one port a person or a test talks to; every host is served behind it.
  PROXY_PORT: env.port(8080),
  PROXY_DOMAIN: env.str('localhost'),
  // `auto`: pick free ports for the services (tests, or a second fleet beside a running one).
  FLEET_PORTS: env.oneOf(['default', 'auto'] as const, 'default'),
  // `auto` (or true): seed what the markers say is missing; `always`: every step again; `never` (or false).
  FLEET_SEED: env.str('auto'),
  // Prefix for the tenant databases the seed creates, so a test fleet never touches the demo one.
  FLEET_DB_PREFIX: env.optionalStr(),
  // Comma list of demo tenant ids to seed (default: all 11), to keep test fleets small.
  FLEET_TENANTS: env.list([]),
  // A real SMTP relay for the fleet's mail; unset: a local catcher keeps every message in .run/mail.
  SMTP_HOST: env.optionalStr(),
  FLEET_MAIL_DIR: env.str('.run/mail'),
  // Per-install secrets (made on first start, mode 0600); variables already set in the environment win.
  FLEET_SECRETS_FILE: env.str(LOCAL_SECRETS_FILE),
  // Processes per manifest entry, each on its own port behind the proxy: `2` (every one twice),
  // `2,catalog=3,catalog-worker=1` (per name), default 1. See replicas.ts.
  FLEET_REPLICAS: env.parsed('1', (v) =>
    parseReplicas(
      v,
      fleetProcesses.map((p) => p.name),
    ),
  ),
  // `compiled`: each process runs its bundle (`node services/<name>/dist/server.mjs`, made by
  // `pnpm build`), as the start command and the images do; `tsx`: the TypeScript source (tests).
  FLEET_RUNTIME: env.oneOf(['tsx', 'compiled'] as const, 'tsx'),
};

export interface FleetProcessState {
  /** The manifest name, `<name>.<replica>` when there are several. */
  name: string;
  /** The manifest entry's name (`catalog-worker`). */
  process: string;
  service: ServiceName;
  replica: number;
  port: number | null;
  /** Undefined while the process is down (between a crash and its restart). */
  pid: number | undefined;
  /** How often the supervisor started it again. */
  restarts: number;
}

export interface RunningFleet {
  proxyPort: number;
  /** The port of each service's first replica. */
  ports: Record<ServiceName, number>;
  /** The ports of every replica of each service (what the proxy balances over). */
  replicaPorts: Record<ServiceName, number[]>;
  notes: string[];
  stop(): Promise<void>;
  /**
   * Resolves when the proxy exits on its own (the fleet is then unreachable). A service that
   * exits is restarted by the supervisor instead.
   */
  crashed: Promise<string>;
  /** Every process with its state, replicas one by one. */
  processes(): FleetProcessState[];
  /**
   * A planned restart of one process by its name (`auth.2`): SIGTERM, it drains and exits, it is
   * started again at once; resolves when it is ready. One replica at a time is a rolling restart.
   */
  restart(name: string): Promise<void>;
}

/**
 * Where a service process writes: a pipe to this process, this process's own stdout/stderr, an
 * append-only file `<dir>/<name>.log`, or nowhere. Call spawned() once the child is spawned (or
 * failed to): it closes this process's copy of the file.
 */
export function serviceStdio(
  name: string,
  logs: 'pipe' | 'inherit' | { dir: string } | undefined,
): { out: 'pipe' | 'inherit' | 'ignore' | number; spawned(): void } {
  if (typeof logs !== 'object') return { out: logs ?? 'ignore', spawned() {} };
  mkdirSync(logs.dir, { recursive: true });
  const fd = openSync(join(logs.dir, `${name}.log`), 'a');
  return { out: fd, spawned: () => closeSync(fd) };
}

/** Calls onLine for every non-blank line of a stream's chunks; a line split across chunks is joined. */
export function lineSplitter(onLine: (line: string) => void): (chunk: Buffer) => void {
  let rest = '';
  return (chunk) => {
    const lines = (rest + chunk.toString()).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) onLine(line);
  };
}

async function waitHealthy(
  port: number,
  name: string,
  child: ChildProcess,
  // Generous: a loaded two-core machine starting a dozen processes at once takes minutes.
  timeoutMs = 180_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`${name} exited with code ${child.exitCode} during start-up`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`${name} did not become healthy on port ${port}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/**
 * Migrates every database and runs the demo seed steps not yet marked as done (FLEET_SEED=auto;
 * `always` runs them all, `never` none): the one-shot part of a start.
 */
export async function prepareFleet(opts: {
  env?: Record<string, string | undefined>;
  log?: (line: string) => void;
}): Promise<string[]> {
  // Two starts on the same databases (a second terminal, compose's one-shot job beside a start)
  // take turns: the second finds the first one's markers and seeds nothing. A session advisory
  // lock on the maintenance database, since the control database may not exist yet.
  const e = loadEnv(fleetEnvShape, { ...process.env, ...opts.env });
  const lockDb = createPgDb({ ...pgAddressFromEnv(e), database: 'postgres' }, { max: 1 });
  const key = `aplt-fleet-prepare:${e.CONTROL_DB}`;
  try {
    return await lockDb.connection().execute(async (conn) => {
      await sql`SELECT pg_advisory_lock(hashtext(${key}))`.execute(conn);
      try {
        return await prepareFleetLocked(opts);
      } finally {
        await sql`SELECT pg_advisory_unlock(hashtext(${key}))`.execute(conn);
      }
    });
  } finally {
    await lockDb.destroy();
  }
}

async function prepareFleetLocked(opts: {
  env?: Record<string, string | undefined>;
  log?: (line: string) => void;
}): Promise<string[]> {
  const given = { ...process.env, ...opts.env };
  const e = loadEnv(fleetEnvShape, given);
  // Seeds build service configurations too: they see the same secrets as the services.
  const source: Record<string, string | undefined> = { ...ensureSecretsFile(e.FLEET_SECRETS_FILE) };
  for (const [k, v] of Object.entries(given)) if (v !== undefined && v !== '') source[k] = v;
  const log = opts.log ?? ((line: string) => console.log(line));
  const server = pgAddressFromEnv(e);
  const mode = seedModeOf(e.FLEET_SEED);
  await migrateFleet(log, source);
  const notes: string[] = [];
  if (mode !== 'never') {
    const control = createPgDb<ControlDatabase>({ ...server, database: e.CONTROL_DB }, { max: 2 });
    const access = createPgDb<AccessDatabase>({ ...server, database: e.PG_DB }, { max: 2 });
    const portal = createMysqlDb(
      {
        host: e.MYSQL_HOST,
        port: e.MYSQL_PORT,
        user: e.MYSQL_USER,
        password: e.MYSQL_PASSWORD,
        database: e.PORTAL_DB,
      },
      { max: 2 },
    );
    const tenantServers = tenantServersFromEnv(e);
    const databases = new TenantDatabases(tenantServers, { poolMax: 2 });
    try {
      const ctx = {
        server,
        tenantServers,
        registry: new TenantRegistry(control, 0),
        databases,
        access,
        portal,
        domain: e.PROXY_DOMAIN,
        proxyPort: e.PROXY_PORT,
        log,
        notes,
        env: source,
        dbPrefix: e.FLEET_DB_PREFIX ?? '',
        tenantFilter: e.FLEET_TENANTS,
      };
      await runSeedSteps(ctx, control, mode);
    } finally {
      await Promise.allSettled([databases.close(), control.destroy(), access.destroy(), portal.destroy()]);
    }
  }

  return notes;
}

/** Migrates, seeds, starts every service process and the proxy. */
export async function startFleet(opts: {
  env?: Record<string, string | undefined>;
  log?: (line: string) => void;
  /**
   * Every line a service writes, for a person at a terminal (the start command prefixes them) or
   * a test. Costs a pipe and a split per chunk in this process, so only for interactive use.
   */
  serviceOutput?: (name: string, line: string) => void;
  /**
   * Without serviceOutput, where the services write (as production runs them, no process in
   * between): `{ dir }` one append-only file per process (`<dir>/<name>.log`), `inherit` this
   * process's stdout and stderr. Default: nowhere.
   */
  serviceLogs?: 'inherit' | { dir: string };
}): Promise<RunningFleet> {
  const source = { ...process.env, ...opts.env };
  const e = loadEnv(fleetEnvShape, source);
  const log = opts.log ?? ((line: string) => console.log(line));

  const started = performance.now();
  const notes = await prepareFleet({ env: opts.env, log });
  const prepared = performance.now();
  const ports = { ...ServicePorts } as Record<ServiceName, number>;
  // `auto`: one free port per HTTP process, all distinct and none the proxy's.
  const extraReplicas = fleetProcesses
    .filter((p) => p.port !== null)
    .reduce((n, p) => n + (e.FLEET_REPLICAS[p.name] ?? 1) - 1, 0);
  const spare =
    e.FLEET_PORTS === 'auto'
      ? await freePorts(Object.keys(ports).length + extraReplicas, [e.PROXY_PORT])
      : [];
  if (e.FLEET_PORTS === 'auto')
    for (const s of Object.keys(ports) as ServiceName[]) ports[s] = spare.shift()!;
  // Every process of the manifest as many times as FLEET_REPLICAS says, each HTTP one on its own
  // port: the first on the service's port, the others on free ports (auto) or 100 apart.
  const instances: FleetInstance[] = [];
  for (const p of fleetProcesses) {
    const count = e.FLEET_REPLICAS[p.name] ?? 1;
    for (let replica = 1; replica <= count; replica++) {
      const port =
        p.port === null
          ? null
          : replica === 1
            ? ports[p.service]
            : e.FLEET_PORTS === 'auto'
              ? spare.shift()!
              : ports[p.service] + 100 * (replica - 1);
      instances.push({ process: p, name: count > 1 ? `${p.name}.${replica}` : p.name, replica, port });
    }
  }
  const replicaPorts = {} as Record<ServiceName, number[]>;
  for (const i of instances) if (i.port !== null) (replicaPorts[i.process.service] ??= []).push(i.port);
  mkdirSync('.run', { recursive: true });

  const children = new Map<string, Supervised>();
  let stopping = false;
  let reportCrash: (name: string) => void = () => {};
  const crashed = new Promise<string>((resolve) => {
    reportCrash = resolve;
  });
  const serviceEnv: Record<string, string> = {
    ...serviceMallocEnv,
    ...ensureSecretsFile(e.FLEET_SECRETS_FILE),
  };
  notes.push(`secrets: ${e.FLEET_SECRETS_FILE} (made once per checkout, mode 0600; delete it to rotate)`);
  for (const [k, v] of Object.entries(source)) if (v !== undefined && v !== '') serviceEnv[k] = v;
  // Service-to-service calls (internal routes, never through the proxy) know every replica and
  // start at the next one in turn, moving on when one does not answer (ServiceEndpoints).
  const urlsOf = (s: ServiceName) =>
    (replicaPorts[s] ?? [ports[s]]).map((port) => `http://127.0.0.1:${port}`).join(',');
  for (const s of Object.keys(ports) as ServiceName[]) {
    serviceEnv[`${s.toUpperCase().replace(/-/g, '_')}_URL`] = urlsOf(s);
  }
  serviceEnv.LICENSE_API_URL = urlsOf('access');
  let mail: MailCatcher | undefined;
  if (!e.SMTP_HOST) {
    mail = await startMailCatcher(e.FLEET_MAIL_DIR, (line) => log(line));
    Object.assign(serviceEnv, {
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(mail.port),
      SMTP_TLS_REJECT_UNAUTHORIZED: 'false',
    });
    notes.push(
      `mail: every message is kept in ${e.FLEET_MAIL_DIR}/ and summarised in this log (SMTP 127.0.0.1:${mail.port})`,
    );
  }
  // Every process stops when this runner is gone (killed with SIGKILL), rather than live on.
  serviceEnv.FLEET_SUPERVISOR_PID = String(process.pid);
  serviceEnv.PUBLIC_PROXY_URL = `http://127.0.0.1:${e.PROXY_PORT}`;
  // The storefront calls the store API through the proxy on the tenant host (server side).
  serviceEnv.STORE_API_URL ??= serviceEnv.PUBLIC_PROXY_URL;
  serviceEnv.NEXT_PUBLIC_GATEKEEPER_ENABLED ??= 'true';
  const replicated = new Set(
    instances.filter((i) => i.replica > 1 && i.port !== null).map((i) => i.process.service),
  );
  if (replicated.size) notes.push(`replicas: ${describeReplicas(instances)} (FLEET_REPLICAS)`);

  const stopChildren = () => Promise.all([...children.values()].map((c) => c.stop()));

  let proxy: RunningProxy | undefined;
  try {
    const spawnInstance = (i: FleetInstance) => {
      const p = i.process;
      const env: Record<string, string> = { ...serviceEnv };
      if (i.port !== null) env.PORT = String(i.port);
      // A replica keeps serving with /readyz at 503 for a while, then stops listening (see
      // FLEET_DRAIN_DELAY_MS).
      if (replicated.has(p.service)) env.DRAIN_DELAY_MS ??= String(FLEET_DRAIN_DELAY_MS);
      const supervised = new Supervised(i.name, {
        spawn: () => {
          const output = serviceStdio(i.name, opts.serviceOutput ? 'pipe' : opts.serviceLogs);
          let child: ChildProcess;
          try {
            child = spawn(process.execPath, nodeArgs(p, e.FLEET_RUNTIME), {
              cwd: p.cwd,
              env,
              stdio: ['ignore', output.out, output.out],
            });
          } finally {
            output.spawned();
          }
          const forward = (line: string) => opts.serviceOutput?.(i.name, line);
          child.stdout?.on('data', lineSplitter(forward));
          child.stderr?.on('data', lineSplitter(forward));
          return child;
        },
        ready: (child) => (i.port === null ? Promise.resolve() : waitHealthy(i.port, i.name, child)),
        log,
      });
      children.set(i.name, supervised);
    };
    const healthy = (group: FleetInstance[]) => Promise.all(group.map((i) => children.get(i.name)?.ready()));
    // The access service first: every other service fetches its licenses from it at start-up.
    // Then the first replica of every other process, then the further replicas: fewer processes
    // starting at once on a small machine, each within its health deadline.
    const first = instances.filter((i) => i.process.service === 'access');
    const rest = instances.filter((i) => i.process.service !== 'access');
    for (const wave of [first, rest.filter((i) => i.replica === 1), rest.filter((i) => i.replica > 1)]) {
      wave.forEach(spawnInstance);
      await healthy(wave);
    }
    proxy = await startCaddy({
      port: e.PROXY_PORT,
      domain: e.PROXY_DOMAIN,
      upstreams: localUpstreams(replicaPorts),
      bind: '127.0.0.1',
      // The proxy's own errors (an upstream it could not reach) beside the services' lines.
      ...(opts.serviceOutput
        ? {
            onOutput: (text: string) => {
              for (const line of text.split('\n')) if (line.trim()) opts.serviceOutput!('proxy', line);
            },
          }
        : {}),
    });
  } catch (err) {
    stopping = true;
    await stopChildren();
    await mail?.close();
    throw err;
  }
  // From here a process that exits is restarted (with backoff) while the others keep serving.
  for (const c of children.values()) c.supervise();
  const secs = (ms: number) => (ms / 1000).toFixed(1);
  const ready = performance.now();
  log(
    `fleet ready in ${secs(ready - started)} s (migrate + seed ${secs(prepared - started)} s, services and proxy ${secs(ready - prepared)} s)`,
  );
  const runningProxy = proxy;
  runningProxy.process.once('exit', () => {
    if (!stopping) reportCrash('proxy exited');
  });
  const supervisedNamed = (name: string) => {
    const c = children.get(name);
    if (!c) throw new Error(`no fleet process ${name} (${[...children.keys()].join(', ')})`);
    return c;
  };
  return {
    proxyPort: e.PROXY_PORT,
    ports,
    replicaPorts,
    notes,
    crashed,
    processes: () =>
      instances.map((i) => ({
        name: i.name,
        process: i.process.name,
        service: i.process.service,
        replica: i.replica,
        port: i.port,
        pid: children.get(i.name)?.pid,
        restarts: children.get(i.name)?.restarts ?? 0,
      })),
    restart: (name) => supervisedNamed(name).restart(),
    async stop() {
      stopping = true;
      await runningProxy.stop();
      await stopChildren();
      await mail?.close();
    },
  };
}

/** One process of the running fleet: a manifest entry's replica. */
interface FleetInstance {
  process: FleetProcess;
  /** The manifest name, with `.<replica>` when there are several (`auth.2`): log prefix and file. */
  name: string;
  replica: number;
  port: number | null;
}

/** `auth ×2, catalog ×3, ...` for the banner: the processes that run more than once. */
function describeReplicas(instances: FleetInstance[]): string {
  const counts = new Map<string, number>();
  for (const i of instances) counts.set(i.process.name, Math.max(counts.get(i.process.name) ?? 0, i.replica));
  return [...counts]
    .filter(([, n]) => n > 1)
    .map(([name, n]) => `${name} x${n}`)
    .join(', ');
}

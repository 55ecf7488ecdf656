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
  createMysqlDb,
  createPgDb,
  type Kysely,
  migrateFleet,
  sql,
  TenantDatabases,
  TenantRegistry,
} from '@aplt/db';
import { freePort, localUpstreams, type RunningProxy, startCaddy } from '@aplt/proxy';
import { ensureSecretsFile, LOCAL_SECRETS_FILE } from '../secrets';
import { startMailCatcher, type MailCatcher } from './mail-catcher';
import { fleetProcesses } from './manifest';
import { type SeedContext, seedSteps } from './seeds';
import { ensureSeedMarkers, FLEET_SCOPE, readSeedMarkers, writeSeedMarkers } from './seed-markers';

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
async function runSeedSteps(ctx: SeedContext, control: Kysely<any>, mode: SeedMode): Promise<string[]> {
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
};

export interface RunningFleet {
  proxyPort: number;
  ports: Record<ServiceName, number>;
  notes: string[];
  stop(): Promise<void>;
  /** Resolves when a service exits on its own (the fleet is then broken). */
  crashed: Promise<string>;
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
  timeoutMs = 60_000,
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
    const control = createPgDb({ ...server, database: e.CONTROL_DB }, { max: 2 });
    const access = createPgDb({ ...server, database: e.PG_DB }, { max: 2 });
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
  if (e.FLEET_PORTS === 'auto')
    for (const s of Object.keys(ports) as ServiceName[]) ports[s] = await freePort();
  mkdirSync('.run', { recursive: true });

  const children = new Map<string, ChildProcess>();
  let stopping = false;
  let reportCrash: (name: string) => void = () => {};
  const crashed = new Promise<string>((resolve) => {
    reportCrash = resolve;
  });
  const serviceEnv: Record<string, string> = { ...ensureSecretsFile(e.FLEET_SECRETS_FILE) };
  notes.push(`secrets: ${e.FLEET_SECRETS_FILE} (made once per checkout, mode 0600; delete it to rotate)`);
  for (const [k, v] of Object.entries(source)) if (v !== undefined && v !== '') serviceEnv[k] = v;
  for (const s of Object.keys(ports) as ServiceName[]) {
    serviceEnv[`${s.toUpperCase().replace(/-/g, '_')}_URL`] = `http://127.0.0.1:${ports[s]}`;
  }
  serviceEnv.LICENSE_API_URL = `http://127.0.0.1:${ports.access}`;
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
  serviceEnv.PUBLIC_PROXY_URL = `http://127.0.0.1:${e.PROXY_PORT}`;
  // The storefront calls the store API through the proxy on the tenant host (server side).
  serviceEnv.STORE_API_URL ??= serviceEnv.PUBLIC_PROXY_URL;
  serviceEnv.NEXT_PUBLIC_GATEKEEPER_ENABLED ??= 'true';

  const stopChildren = async () => {
    await Promise.all(
      [...children.values()].map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
            child.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            child.kill('SIGTERM');
          }),
      ),
    );
  };

  let proxy: RunningProxy | undefined;
  try {
    const spawnProcess = (p: (typeof fleetProcesses)[number]) => {
      const output = serviceStdio(p.name, opts.serviceOutput ? 'pipe' : opts.serviceLogs);
      let child: ChildProcess;
      try {
        child = spawn(process.execPath, p.args ?? ['--import', 'tsx', p.entry], {
          cwd: p.cwd,
          env: { ...serviceEnv, ...(p.port === null ? {} : { PORT: String(ports[p.service]) }) },
          stdio: ['ignore', output.out, output.out],
        });
      } finally {
        output.spawned();
      }
      children.set(p.name, child);
      const forward = (line: string) => opts.serviceOutput?.(p.name, line);
      child.stdout?.on('data', lineSplitter(forward));
      child.stderr?.on('data', lineSplitter(forward));
      child.once('exit', (code, signal) => {
        if (!stopping) reportCrash(`${p.name} exited (${signal ?? code})`);
      });
      return child;
    };
    const healthy = (group: typeof fleetProcesses) =>
      Promise.all(
        group
          .filter((p) => p.port !== null)
          .map((p) => waitHealthy(ports[p.service], p.name, children.get(p.name) as ChildProcess)),
      );
    // The access service first: every other service fetches its licenses from it at start-up.
    const first = fleetProcesses.filter((p) => p.service === 'access');
    const rest = fleetProcesses.filter((p) => p.service !== 'access');
    first.forEach(spawnProcess);
    await healthy(first);
    rest.forEach(spawnProcess);
    await healthy(rest);
    proxy = await startCaddy({
      port: e.PROXY_PORT,
      domain: e.PROXY_DOMAIN,
      upstreams: localUpstreams(ports),
      bind: '127.0.0.1',
    });
  } catch (err) {
    stopping = true;
    await stopChildren();
    await mail?.close();
    throw err;
  }
  const secs = (ms: number) => (ms / 1000).toFixed(1);
  const ready = performance.now();
  log(
    `fleet ready in ${secs(ready - started)} s (migrate + seed ${secs(prepared - started)} s, services and proxy ${secs(ready - prepared)} s)`,
  );
  const runningProxy = proxy;
  runningProxy.process.once('exit', () => {
    if (!stopping) reportCrash('proxy exited');
  });
  return {
    proxyPort: e.PROXY_PORT,
    ports,
    notes,
    crashed,
    async stop() {
      stopping = true;
      await runningProxy.stop();
      await stopChildren();
      await mail?.close();
    },
  };
}

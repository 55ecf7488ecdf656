// The fleet the storefront benchmarks run against: the start command's own path (migrate, seed the
// demo tenants master and acme, every service as its own process with its logging, `next start`
// of the storefront's build, Caddy with forward auth) on private databases, Redis keys and ports.
// The visitor (this machine, 127.0.0.1) files an access request and staff approve it, so the
// gatekeeper lets the shop pages render. stop() removes everything the fleet made.
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropFleetDatabases } from '@aplt/testing';
import { ensureStorefrontBuild } from '../apps/storefront/test/build';
import { startFleet } from '../deploy/fleet/run-fleet';
import { demoAdmin } from '../deploy/fleet/seeds/demo-tenants';
import { deleteRedisPrefix } from '../services/catalog/bench/fixture';

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request to the proxy with the given Host (fetch would replace it). */
export function viaProxy(
  port: number,
  host: string,
  path: string,
  opts: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: opts.method ?? 'GET',
        headers: {
          host,
          ...(body ? { 'content-type': 'application/json' } : {}),
          ...opts.headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface BenchFleet {
  proxyPort: number;
  /** Lines the services wrote (kept in a file, as the start command prints them). */
  logFile: string;
  stop(): Promise<void>;
}

export async function startStorefrontFleet(tenants = 'master,acme'): Promise<BenchFleet> {
  console.log('building the storefront when its build is stale ...');
  ensureStorefrontBuild();
  const prefix = `bench${process.pid}_`;
  const pg = {
    host: process.env.PG_HOST ?? '127.0.0.1',
    port: Number(process.env.PG_PORT ?? 5432),
    user: process.env.PG_USER ?? 'postgres',
    password: process.env.PG_PASS ?? '',
  };
  const mysql = {
    host: process.env.MYSQL_HOST ?? '127.0.0.1',
    port: Number(process.env.MYSQL_PORT ?? 3306),
    user: process.env.MYSQL_USER ?? 'root',
    password: process.env.MYSQL_PASSWORD ?? '',
  };
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const proxyPort = await freePort();
  const work = mkdtempSync(join(tmpdir(), 'bench-storefront-'));
  mkdirSync('.run', { recursive: true });
  const logFile = join('.run', `bench-storefront-${process.pid}.log`);
  const log = createWriteStream(logFile);
  const cleanup = async () => {
    await dropFleetDatabases(prefix, { pg, mysql });
    await deleteRedisPrefix(redisUrl, prefix);
    rmSync(work, { recursive: true, force: true });
    log.end();
  };
  console.log('starting the fleet (start command path, private databases) ...');
  const fleet = await startFleet({
    env: {
      PG_HOST: pg.host,
      PG_PORT: String(pg.port),
      PG_USER: pg.user,
      PG_PASS: pg.password,
      CONTROL_DB: `${prefix}control`,
      PG_DB: `${prefix}access`,
      MYSQL_HOST: mysql.host,
      MYSQL_PORT: String(mysql.port),
      MYSQL_USER: mysql.user,
      MYSQL_PASSWORD: mysql.password,
      PORTAL_DB: `${prefix}portal`,
      REDIS_URL: redisUrl,
      REDIS_PREFIX: prefix,
      PROXY_PORT: String(proxyPort),
      FLEET_PORTS: 'auto',
      FLEET_DB_PREFIX: prefix,
      FLEET_TENANTS: tenants,
      NEXT_PUBLIC_GATEKEEPER_ENABLED: 'true',
      LICENSE_CACHE_DIR: join(work, 'cache'),
      FILE_STORE_DIR: join(work, 'files'),
      DEVPROJECTS_GIT_DIR: join(work, 'repos'),
      FLEET_MAIL_DIR: join(work, 'mail'),
      FLEET_SECRETS_FILE: join(work, 'secrets.env'),
    },
    log: (line) => log.write(`fleet| ${line}\n`),
    serviceOutput: (name, line) => log.write(`${name}| ${line}\n`),
  }).catch(async (err: unknown) => {
    await cleanup().catch(() => {});
    throw err;
  });
  const stop = async () => {
    await fleet.stop();
    await cleanup();
  };
  try {
    await approveThisMachine(proxyPort);
  } catch (err) {
    await stop();
    throw err;
  }
  return { proxyPort, logFile, stop };
}

/** The visitor 127.0.0.1 asks for access on acme's shop and the demo admin approves it. */
async function approveThisMachine(proxyPort: number): Promise<void> {
  const api = (path: string, opts: Parameters<typeof viaProxy>[3] = {}) =>
    viaProxy(proxyPort, 'acme.localhost', path, opts);
  const login = await api('/auth/user/emailpass', {
    method: 'POST',
    body: { email: demoAdmin.email, password: demoAdmin.password },
  });
  if (login.status !== 200) throw new Error(`admin login answered ${login.status}: ${login.body}`);
  const auth = { authorization: `Bearer ${(JSON.parse(login.body) as { token: string }).token}` };
  const filed = await api('/store/access-request', {
    method: 'POST',
    body: { name: 'Bench', email: 'bench@example.com', company: 'Bench BV', message: 'benchmark' },
  });
  if (filed.status !== 201) throw new Error(`access request answered ${filed.status}: ${filed.body}`);
  const { id } = JSON.parse(filed.body) as { id: string };
  const put = await api(`/admin/aplt/access-requests/${id}`, {
    method: 'PUT',
    headers: auth,
    body: { status: 'approved' },
  });
  if (put.status !== 200) throw new Error(`approval answered ${put.status}: ${put.body}`);
}

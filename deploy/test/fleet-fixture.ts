import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMysqlDb, createPgDb, dropPgDatabase, sql } from '@aplt/db';
import { freePort, httpRequest, testServers, uniqueName } from '@aplt/testing';
import { type RunningFleet, startFleet } from '../fleet/run-fleet';

export interface FleetFixture {
  /** The running fleet (replaced by restart()). */
  fleet: RunningFleet;
  proxyPort: number;
  /** Private work directory: secrets file, mail, caches, file store, git repository. */
  work: string;
  mailDir: string;
  secretsFile: string;
  prefix: string;
  output: string[];
  /** A request through the proxy with the given Host header. */
  via(host: string, path: string, opts?: Parameters<typeof httpRequest>[1]): ReturnType<typeof httpRequest>;
  /**
   * Stops the fleet's processes and starts them again on the same databases, files and ports
   * (a second start command on a fleet that has its data); `env` overrides the first start's.
   */
  restart(env?: Record<string, string>): Promise<RunningFleet>;
  stop(): Promise<void>;
}

/**
 * The start command's real path (migrate, seed, every service as its own process, Caddy) on
 * databases, Redis keys and files private to the calling test file; stop() removes them.
 */
export async function startFleetFixture(
  tenants: string,
  env: Record<string, string> = {},
): Promise<FleetFixture> {
  const prefix = `${uniqueName('f')}_`;
  const { pg, mysql, redisUrl } = testServers();
  const proxyPort = await freePort();
  const work = mkdtempSync(join(tmpdir(), 'fleet-'));
  const mailDir = join(work, 'mail');
  const secretsFile = join(work, 'secrets.env');
  const output: string[] = [];
  const cleanup = async () => {
    const admin = createPgDb({ ...pg, database: 'postgres' }, { max: 1 });
    try {
      const dbs = await sql<{
        datname: string;
      }>`select datname from pg_database where datname like ${`${prefix}%`}`.execute(admin);
      for (const row of dbs.rows) await dropPgDatabase(pg, row.datname);
    } finally {
      await admin.destroy();
    }
    const my = createMysqlDb({ ...mysql, database: 'mysql' }, { max: 1 });
    try {
      await sql`DROP DATABASE IF EXISTS ${sql.id(`${prefix}portal`)}`.execute(my);
    } finally {
      await my.destroy();
    }
  };
  const baseEnv: Record<string, string | undefined> = {
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
    LICENSE_CACHE_DIR: join(work, 'cache'),
    FILE_STORE_DIR: join(work, 'files'),
    DEVPROJECTS_GIT_DIR: join(work, 'repos'),
    FLEET_MAIL_DIR: mailDir,
    FLEET_SECRETS_FILE: secretsFile,
    LOG_LEVEL: 'warn',
    ...env,
  };
  const start = (overrides: Record<string, string>) =>
    startFleet({
      env: { ...baseEnv, ...overrides },
      log: (line) => output.push(line),
      serviceOutput: (name, line) => output.push(`${name}| ${line}`),
    }).catch(async (err: unknown) => {
      await cleanup().catch(() => {});
      throw new Error(`${(err as Error).message}\n${output.slice(-40).join('\n')}`);
    });
  const fixture: FleetFixture = {
    fleet: await start({}),
    proxyPort,
    work,
    mailDir,
    secretsFile,
    prefix,
    output,
    via: (host, path, opts = {}) => httpRequest(`http://127.0.0.1:${proxyPort}${path}`, { ...opts, host }),
    async restart(overrides = {}) {
      await fixture.fleet.stop();
      fixture.fleet = await start(overrides);
      return fixture.fleet;
    },
    async stop() {
      await fixture.fleet.stop();
      await cleanup();
    },
  };
  return fixture;
}

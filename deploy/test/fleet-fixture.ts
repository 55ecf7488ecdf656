import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  dropFleetDatabases,
  freePort,
  httpRequest,
  type TestServers,
  testServers,
  uniqueName,
} from '@aplt/testing';
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

export interface FleetFixtureOptions {
  /** The servers to use; by default the test run's (which needs vitest). */
  servers?: Pick<TestServers, 'pg' | 'mysql' | 'redisUrl'>;
  /** The prefix of its databases and Redis keys; by default unique to the test run. */
  prefix?: string;
  /** Sees each line of the runner and the services as it comes (they are kept in `output` too). */
  onOutput?: (line: string) => void;
}

/**
 * The start command's real path (migrate, seed, every service as its own process, Caddy) on
 * databases, Redis keys and files private to the calling test file (or benchmark: give `servers`
 * and `prefix`, and nothing of vitest is used); stop() removes them.
 */
export async function startFleetFixture(
  tenants: string,
  env: Record<string, string> = {},
  opts: FleetFixtureOptions = {},
): Promise<FleetFixture> {
  const prefix = opts.prefix ?? `${uniqueName('f')}_`;
  const { pg, mysql, redisUrl } = opts.servers ?? testServers();
  const proxyPort = await freePort();
  const work = mkdtempSync(join(tmpdir(), 'fleet-'));
  const mailDir = join(work, 'mail');
  const secretsFile = join(work, 'secrets.env');
  const output: string[] = [];
  const record = (line: string) => {
    output.push(line);
    opts.onOutput?.(line);
  };
  // The fleet's files too: its secrets, mail, caches and repositories (every run left ten behind).
  const cleanup = async () => {
    await dropFleetDatabases(prefix, { pg, mysql });
    await rm(work, { recursive: true, force: true });
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
      log: (line) => record(line),
      serviceOutput: (name, line) => record(`${name}| ${line}`),
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

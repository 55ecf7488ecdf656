import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { loadEnv, mysqlEnv, pgEnv, redisEnv } from '@aplt/config';
import {
  createPgDb,
  type DatabaseKind,
  dropPgDatabase,
  migrateToLatest,
  migrationFingerprint,
  sql,
} from '@aplt/db';
import type { TestProject } from 'vitest/node';
import type { TestServers } from '@aplt/db/testing';

const pgKinds: Exclude<DatabaseKind, 'portal'>[] = ['control', 'access', 'commerce', 'aplt'];

/** Does a container engine answer on its socket? Only then are testcontainers worth trying. */
function containerEngineAnswers(): Promise<boolean> {
  if (process.env.TESTCONTAINERS === 'off') return Promise.resolve(false);
  const socketPath = process.env.DOCKER_HOST?.startsWith('unix://')
    ? process.env.DOCKER_HOST.slice('unix://'.length)
    : '/var/run/docker.sock';
  return new Promise((resolve) => {
    const req = request({ socketPath, path: '/_ping', timeout: 1_000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => {
      req.destroy();
      resolve(false);
    });
    req.end();
  });
}

async function startContainers(): Promise<{ servers: TestServers; stop: () => Promise<void> }> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const [pg, maria, redis] = await Promise.all([
    new GenericContainer('postgres:15')
      .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust' })
      .withExposedPorts(5432)
      .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
      .start(),
    new GenericContainer('mariadb:10.11')
      .withEnvironment({ MARIADB_ALLOW_EMPTY_ROOT_PASSWORD: '1' })
      .withExposedPorts(3306)
      .withWaitStrategy(Wait.forLogMessage(/ready for connections/, 2))
      .start(),
    new GenericContainer('redis:7').withExposedPorts(6379).start(),
  ]);
  return {
    servers: {
      pg: { host: pg.getHost(), port: pg.getMappedPort(5432), user: 'postgres' },
      mysql: { host: maria.getHost(), port: maria.getMappedPort(3306), user: 'root' },
      redisUrl: `redis://${redis.getHost()}:${redis.getMappedPort(6379)}`,
      mode: 'containers',
    },
    stop: async () => {
      await Promise.allSettled([pg.stop(), maria.stop(), redis.stop()]);
    },
  };
}

function localServers(): TestServers {
  const e = loadEnv({ ...pgEnv, ...mysqlEnv, ...redisEnv });
  return {
    pg: { host: e.PG_HOST, port: e.PG_PORT, user: e.PG_USER, password: e.PG_PASS },
    mysql: { host: e.MYSQL_HOST, port: e.MYSQL_PORT, user: e.MYSQL_USER, password: e.MYSQL_PASSWORD },
    redisUrl: e.REDIS_URL,
    mode: 'local',
  };
}

/**
 * Builds one migrated template per database kind (keyed by the migrations' content, so it is
 * reused across runs until a migration changes). Test files clone it: a fresh database costs a
 * file copy instead of a migration run. An advisory lock keeps parallel runs from racing.
 */
const KEEP_OTHER_TEMPLATES = 3;

async function prepareTemplates(server: TestServers['pg']): Promise<void> {
  const admin = createPgDb({ ...server, database: 'postgres' }, { max: 1 });
  try {
    await sql`select pg_advisory_lock(424242)`.execute(admin);
    try {
      for (const kind of pgKinds) {
        const name = `tpl_${kind}_${migrationFingerprint(kind)}`;
        // Newest first. Templates of other migration sets are kept for a while: another checkout
        // (a worktree on another branch) may be cloning them in a run of its own right now.
        const existing = await sql<{
          datname: string;
        }>`select datname from pg_database where datname like ${`tpl_${kind}_%`} and datname not like '%_build'
           order by oid desc`.execute(admin);
        const stale = existing.rows.filter((r) => r.datname !== name).slice(KEEP_OTHER_TEMPLATES);
        for (const row of stale) await dropPgDatabase(server, row.datname);
        if (existing.rows.some((r) => r.datname === name)) continue;
        const building = `${name}_build`;
        await dropPgDatabase(server, building);
        await sql`CREATE DATABASE ${sql.id(building)}`.execute(admin);
        const db = createPgDb({ ...server, database: building }, { max: 1 });
        try {
          await migrateToLatest(db, kind);
        } finally {
          await db.destroy();
        }
        await sql`ALTER DATABASE ${sql.id(building)} RENAME TO ${sql.id(name)}`.execute(admin);
      }
    } finally {
      await sql`select pg_advisory_unlock(424242)`.execute(admin);
    }
  } finally {
    await admin.destroy();
  }
}

async function dropRunLeftovers(servers: TestServers, runId: string): Promise<void> {
  const admin = createPgDb({ ...servers.pg, database: 'postgres' }, { max: 1 });
  try {
    const left = await sql<{
      datname: string;
    }>`select datname from pg_database where datname like ${`${runId}\\_%`}`.execute(admin);
    for (const row of left.rows) await dropPgDatabase(servers.pg, row.datname);
  } finally {
    await admin.destroy();
  }
}

export default async function setup(project: TestProject) {
  let stopContainers: (() => Promise<void>) | undefined;
  let servers: TestServers;
  if (await containerEngineAnswers()) {
    const started = await startContainers();
    servers = started.servers;
    stopContainers = started.stop;
  } else {
    servers = localServers();
  }
  await prepareTemplates(servers.pg);
  const runId = `t${randomBytes(4).toString('hex')}`;
  project.provide('servers', servers);
  project.provide('runId', runId);
  return async () => {
    await dropRunLeftovers(servers, runId);
    await stopContainers?.();
  };
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPgDb, sql, tenantDatabaseNames } from '@aplt/db';
import { dropFleetDatabases, testServers, uniqueName } from '@aplt/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareFleet } from '../fleet/run-fleet';
import { listSeedMarkers } from '../fleet/seed-markers';
import { seedSteps } from '../fleet/seeds';

/**
 * Two starts on the same empty databases at once (a second terminal, compose's one-shot job
 * beside a start): they take turns, so the demo seed runs once and the second finds its markers.
 */
describe('two starts at once seed the fleet once', () => {
  const prefix = `${uniqueName('sc')}_`;
  const work = mkdtempSync(join(tmpdir(), 'seed-concurrent-'));
  const { pg, mysql, redisUrl } = testServers();
  const env = {
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
    FLEET_DB_PREFIX: prefix,
    FLEET_TENANTS: 'master,acme',
    LICENSE_CACHE_DIR: join(work, 'cache'),
    FILE_STORE_DIR: join(work, 'files'),
    DEVPROJECTS_GIT_DIR: join(work, 'repos'),
    FLEET_SECRETS_FILE: join(work, 'secrets.env'),
    LOG_LEVEL: 'warn',
  };

  afterAll(async () => {
    await dropFleetDatabases(prefix, { pg, mysql });
    rmSync(work, { recursive: true, force: true });
  }, 120_000);

  it('runs every seed step once; the other start finds the markers and seeds nothing', async () => {
    const logs: string[][] = [[], []];
    await Promise.all(logs.map((lines) => prepareFleet({ env, log: (l) => lines.push(l) })));
    const ran = logs.map((lines) => lines.filter((l) => l.startsWith('seed: running ')).length);
    expect(ran.sort()).toEqual([0, seedSteps.length]);
    const control = createPgDb({ ...pg, database: `${prefix}control` }, { max: 1 });
    const master = createPgDb({ ...pg, database: tenantDatabaseNames('master', prefix).aplt }, { max: 1 });
    try {
      const markers = await listSeedMarkers(control);
      const expected = seedSteps.flatMap((s) =>
        s.scope === 'fleet' ? [`${s.name}@*`] : ['master', 'acme'].map((t) => `${s.name}@${t}`),
      );
      expect(markers.map((m) => `${m.step}@${m.scope}`).sort()).toEqual(expected.sort());
      const runs = await sql<{ n: number }>`SELECT count(*)::int AS n FROM aplt_connector_sync
        WHERE triggered_by = 'seed'`.execute(master);
      expect(runs.rows[0]!.n).toBe(32);
    } finally {
      await Promise.all([control.destroy(), master.destroy()]);
    }
  }, 300_000);
});

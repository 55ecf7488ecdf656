// Time from the 200 of POST /auth/user/emailpass/update to all 11 databases holding the new hash
// (auth app -> BullMQ -> password-sync worker -> 10 parallel writes), beside the floor: the same
// 10 writes done directly and in parallel from this process. Target: under 1 s locally.
import { request } from 'node:http';
import { sql } from '@aplt/db';
import {
  authFixture,
  EMAIL,
  percentile,
  proxyHeaders,
  redisUrl,
  resetTokenFor,
} from '../services/auth/bench/fixture';
import { startPasswordSyncWorker } from '@aplt/service-password-sync/worker';

const N = Number(process.env.N ?? 8);

function update(port: number, token: string, password: string): Promise<number> {
  const body = JSON.stringify({ password });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/auth/user/emailpass/update',
        method: 'POST',
        headers: {
          // The proxy's identity assertion, renewed by the signer before it expires.
          ...proxyHeaders('t0.localhost'),
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const fx = await authFixture(11, 'Bench-Start-2026');
const worker = startPasswordSyncWorker({
  registry: fx.registry,
  databases: fx.databases,
  redisUrl,
  prefix: fx.prefix,
  runTtlSeconds: 3600,
  concurrency: 4,
  log: { info: () => {}, warn: () => {}, error: console.error },
});
try {
  const tenants = await fx.registry.list();
  const dbs = tenants.map((t) => fx.databases.commerce(t));
  const hashes = () =>
    Promise.all(
      dbs.map(
        async (db) =>
          (
            await sql<{
              h: string;
            }>`select provider_metadata->>'password' as h from provider_identity where entity_id = ${EMAIL}`.execute(
              db,
            )
          ).rows[0]!.h,
      ),
    );
  const synced: number[] = [];
  const direct: number[] = [];
  for (let i = 0; i < N; i++) {
    const token = await resetTokenFor(fx.registry, fx.databases, 't0');
    const status = await update(fx.port, token, `Sync-Bench-${i}-2026`);
    const t0 = performance.now();
    if (status !== 200) throw new Error(`update answered ${status}`);
    const target = (await hashes())[0]!;
    for (;;) {
      if ((await hashes()).every((h) => h === target)) break;
      if (performance.now() - t0 > 30_000) throw new Error('sync did not complete in 30 s');
    }
    synced.push(performance.now() - t0);

    // Floor: the same ten writes straight from here, in parallel.
    const t1 = performance.now();
    await Promise.all(
      dbs
        .slice(1)
        .map((db) =>
          sql`update provider_identity set provider_metadata = jsonb_set(provider_metadata, '{password}', to_jsonb(${target}::text)) where entity_id = ${EMAIL}`.execute(
            db,
          ),
        ),
    );
    direct.push(performance.now() - t1);
  }
  console.log(
    `direct parallel write of 10 databases p50: ${percentile(direct, 50).toFixed(1)} ms (baseline, n=${N})`,
  );
  console.log(
    `200 of update -> all 11 databases hold the new hash: p50 ${percentile(synced, 50).toFixed(1)} ms, max ${Math.max(...synced).toFixed(1)} ms (target < 1000 ms)`,
  );
} finally {
  await worker.close();
  await fx.cleanup();
}

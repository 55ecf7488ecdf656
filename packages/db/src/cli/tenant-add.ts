/**
 * `pnpm tenant:add <id> [--kind tenant|master|pim] [--name "Name"] [--host a.localhost ...]
 *   [--admin-url https://a.example] [--store-url https://shop.a.example] [--pg host:port]`
 * The URLs are the tenant's public addresses for links in e-mails (password reset, e-mail
 * verification); without them the auth service sends no such links for the tenant.
 * Creates and migrates the tenant's databases and registers it. Every service and worker picks
 * it up from the registry; the access service licenses it by cloning (see its docs).
 * `--pg host:port` puts both databases on that PostgreSQL server (same PG_USER / PG_PASS) and
 * records it in the registry row; without it they go to the default servers (PG_*, APLT_DB_*).
 */
import { parseArgs } from 'node:util';
import { apltDbEnv, loadEnv, pgAddressFromEnv, pgEnv, tenantServersFromEnv } from '@aplt/config';
import { createPgDb } from '../connection';
import { parsePgPlacement, type PgPlacement, provisionTenant } from '../provision';
import { type TenantKind, TenantRegistry, tenantKinds } from '../registry';
import type { ControlDatabase } from '../types';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    kind: { type: 'string', default: 'tenant' },
    name: { type: 'string' },
    host: { type: 'string', multiple: true },
    'admin-url': { type: 'string' },
    'store-url': { type: 'string' },
    pg: { type: 'string' },
  },
});

const id = positionals[0];
if (!id || !tenantKinds.includes(values.kind as TenantKind)) {
  console.error(
    'usage: pnpm tenant:add <id> [--kind tenant|master|pim] [--name "Name"] [--host <id>.localhost] [--admin-url <url>] [--store-url <url>] [--pg <host:port>]',
  );
  process.exit(2);
}
let placement: PgPlacement | undefined;
try {
  placement = values.pg === undefined ? undefined : parsePgPlacement(values.pg);
} catch (err) {
  console.error((err as Error).message);
  process.exit(2);
}
const e = loadEnv({ ...pgEnv, ...apltDbEnv });
const control = createPgDb<ControlDatabase>({ ...pgAddressFromEnv(e), database: e.CONTROL_DB }, { max: 1 });
try {
  await provisionTenant(
    new TenantRegistry(control),
    tenantServersFromEnv(e),
    {
      id,
      kind: values.kind as TenantKind,
      name: values.name ?? id,
      hosts: values.host ?? [`${id}.localhost`],
      adminBaseUrl: values['admin-url'] ?? null,
      storeBaseUrl: values['store-url'] ?? null,
    },
    placement ? { placement } : {},
  );
  console.log(`tenant ${id} ready${placement ? ` on ${placement.host}:${placement.port}` : ''}`);
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
} finally {
  await control.destroy();
}

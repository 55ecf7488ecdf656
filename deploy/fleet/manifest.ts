import { existsSync } from 'node:fs';
import { type ServiceName, ServicePorts } from '@aplt/config';

export interface FleetProcess {
  /** Label in the combined log. */
  name: string;
  service: ServiceName;
  entry: string;
  /** HTTP port, or null for a pure worker process. */
  port: number | null;
  /** Node arguments instead of the entry's (the storefront runs its plain server.mjs either way). */
  args?: string[];
  /** Working directory, when not the repository root. */
  cwd?: string;
}

/**
 * Every process of the local fleet. A service may add a worker process here (its own entry
 * file); the proxy routes only to the HTTP ones, by service name.
 */
export const fleetProcesses: FleetProcess[] = [
  ...(Object.keys(ServicePorts) as ServiceName[])
    .filter((service) => service !== 'storefront')
    .map((service) => ({
      name: service,
      service,
      entry: `services/${service}/src/server.ts`,
      port: ServicePorts[service],
    })),
  // The storefront: the `next build` output (deploy/start.sh builds it when missing or stale),
  // served by its server.mjs (Next's request handler behind the page cache, as `next start` would
  // serve it otherwise).
  {
    name: 'storefront',
    service: 'storefront',
    entry: 'apps/storefront/server.mjs',
    args: ['server.mjs', '--hostname', '127.0.0.1'],
    cwd: 'apps/storefront',
    port: ServicePorts.storefront,
  },
  // Connector, commerce-sync and tenant-update workers: long imports stay off the HTTP process.
  { name: 'catalog-worker', service: 'catalog', entry: 'services/catalog/src/worker.ts', port: null },
];

/** The compiled bundle of a source entry: `services/x/src/server.ts` -> `services/x/dist/server.mjs`. */
export function compiledEntry(entry: string): string {
  return entry.replace(/\/src\/([^/]+)\.ts$/, '/dist/$1.mjs');
}

/**
 * How Node starts a process: its bundle (`pnpm build` made it; missing means the build did not
 * run, said plainly instead of a stack trace from Node) or its source through tsx.
 */
export function nodeArgs(p: FleetProcess, runtime: 'tsx' | 'compiled'): string[] {
  if (p.args) return p.args;
  if (runtime === 'tsx') return ['--import', 'tsx', p.entry];
  const bundle = compiledEntry(p.entry);
  if (!existsSync(bundle))
    throw new Error(`${bundle} is missing: run \`pnpm build\` (FLEET_RUNTIME=tsx runs the source)`);
  return [bundle];
}

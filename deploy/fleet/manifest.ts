import { type ServiceName, ServicePorts } from '@aplt/config';

export interface FleetProcess {
  /** Label in the combined log. */
  name: string;
  service: ServiceName;
  entry: string;
  /** HTTP port, or null for a pure worker process. */
  port: number | null;
}

/**
 * Every process of the local fleet. A service may add a worker process here (its own entry
 * file); the proxy routes only to the HTTP ones, by service name.
 */
export const fleetProcesses: FleetProcess[] = [
  ...(Object.keys(ServicePorts) as ServiceName[]).map((service) => ({
    name: service,
    service,
    entry: `services/${service}/src/server.ts`,
    port: ServicePorts[service],
  })),
  // Connector, commerce-sync and tenant-update workers: long imports stay off the HTTP process.
  { name: 'catalog-worker', service: 'catalog', entry: 'services/catalog/src/worker.ts', port: null },
];

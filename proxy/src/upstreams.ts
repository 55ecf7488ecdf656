import { type ServiceName, ServicePorts, serviceNames } from '@aplt/config';

/** Every address of each service, one per replica; the proxies load-balance over them. */
export type Upstreams = Record<ServiceName, readonly string[]>;

function byService(addresses: (s: ServiceName) => string[]): Upstreams {
  const out: Partial<Record<ServiceName, readonly string[]>> = {};
  for (const s of serviceNames) out[s] = addresses(s);
  return out as Upstreams;
}

/**
 * Local fleet: every service on loopback at its default port, or at the given port of each of
 * its replicas.
 */
export function localUpstreams(
  ports: Partial<Record<ServiceName, number | readonly number[]>> = {},
): Upstreams {
  return byService((s) => {
    const given = ports[s] ?? ServicePorts[s];
    return (typeof given === 'number' ? [given] : given).map((p) => `127.0.0.1:${p}`);
  });
}

/**
 * Replicas of each stateless service in docker-compose (`deploy.replicas`); Traefik's file
 * provider cannot discover containers, so the generated file names each one.
 */
export const COMPOSE_REPLICAS = 2;

/**
 * docker-compose: each replica by its container name (`aplt-<service>-<n>`, the project is named
 * `aplt`) at the service's default port. A replica that does not exist fails Traefik's health
 * check and is left out, so fewer replicas still work.
 */
export function composeUpstreams(replicas = COMPOSE_REPLICAS): Upstreams {
  return byService((s) =>
    Array.from({ length: replicas }, (_, i) => `http://aplt-${s}-${i + 1}:${ServicePorts[s]}`),
  );
}

/**
 * The one address Traefik's forward auth calls (it takes no list): the compose service name,
 * which Docker's DNS answers with every replica's address.
 */
export function composeServiceUrl(s: ServiceName): string {
  return `http://${s}:${ServicePorts[s]}`;
}

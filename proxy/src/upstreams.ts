import { type ServiceName, ServicePorts, serviceNames } from '@aplt/config';

/** Local fleet: every service on loopback at its default port. */
export function localUpstreams(
  ports: Partial<Record<ServiceName, number>> = {},
): Record<ServiceName, string> {
  return Object.fromEntries(
    serviceNames.map((s) => [s, `127.0.0.1:${ports[s] ?? ServicePorts[s]}`]),
  ) as Record<ServiceName, string>;
}

/** docker-compose: every service by its compose name at its default port. */
export function composeUpstreams(): Record<ServiceName, string> {
  return Object.fromEntries(serviceNames.map((s) => [s, `http://${s}:${ServicePorts[s]}`])) as Record<
    ServiceName,
    string
  >;
}

export { routeTable, authResponseHeaders, type Route, type HostKind } from './route-table';
export { renderCaddyfile, type CaddyOptions } from './caddyfile';
export { renderTraefikDynamic, type TraefikOptions } from './traefik';
export { startCaddy, type RunningProxy } from './run-caddy';
export { hostFor } from './hosts';
export {
  localUpstreams,
  composeUpstreams,
  composeServiceUrl,
  COMPOSE_REPLICAS,
  type Upstreams,
} from './upstreams';
export { freePort, freePorts } from './free-port';

export { loadEnv, ConfigError } from './load-env';
export * as env from './fields';
export {
  pgEnv,
  pgPoolEnv,
  apltDbEnv,
  mysqlEnv,
  redisEnv,
  httpEnv,
  jwtEnv,
  smtpEnv,
  licenseEnv,
  assertionEnv,
  serviceTokenEnv,
  pgAddressFromEnv,
  tenantServersFromEnv,
} from './common';
export { ServicePorts, type ServiceName, serviceNames } from './ports';
export { chromiumArgs } from './chromium';
export { generateSecrets, secretNames, secretProblem, publishedSecrets, type FleetSecrets } from './secrets';
export { packageDir } from './package-dir';
export { parseCidr, type Cidr } from './cidr';
export { ServiceEndpoints } from './service-endpoints';

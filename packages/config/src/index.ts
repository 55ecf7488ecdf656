export { loadEnv, ConfigError } from './load-env';
export * as env from './fields';
export {
  pgEnv,
  mysqlEnv,
  redisEnv,
  httpEnv,
  jwtEnv,
  smtpEnv,
  licenseEnv,
  assertionEnv,
  serviceTokenEnv,
  pgAddressFromEnv,
} from './common';
export { ServicePorts, type ServiceName, serviceNames } from './ports';
export { chromiumArgs } from './chromium';
export { generateSecrets, secretNames, secretProblem, publishedSecrets, type FleetSecrets } from './secrets';

export {
  createApp,
  createTenantApp,
  type AppOptions,
  type App,
  type FastPathHandler,
  type TenantAppConfig,
} from './create-app';
export {
  HttpError,
  badRequest,
  unauthorized,
  forbidden,
  notFound,
  conflict,
  unprocessable,
  tooManyRequests,
  errorBody,
  type ErrorBody,
  type ErrorType,
} from './errors';
export { type ReadinessCheck } from './health';
export {
  tenantJwtSecret,
  signActorToken,
  verifyActorToken,
  tokenIssuedAt,
  type ActorClaims,
  type Actor,
} from './jwt';
export { requireActor, commerceActorCheck, useActorCheck, type ActorCheck } from './auth-hooks';
export { drainEnv, runService } from './run-service';
export { collectWhenIdle, collectWhenIdleFromEnv } from './idle-memory';
export { stopWithSupervisor } from './supervisor-watch';
export { createLogger, flushLogs, flushLogsSync, type LoggerOptions } from './logger';
export { tenantContextFromEnv, pingPg, type TenantContext } from './tenant-context';
export { CUSTOMER_COOKIE, SESSION_COOKIE } from './auth-hooks';
export { bootTenantService, type TenantServiceDeps } from './bootstrap';
export {
  ASSERTION_HEADER,
  ASSERTION_TTL_SECONDS,
  AssertionSigner,
  AssertionVerifier,
  type AssertionClaims,
  type AssertionInput,
} from './assertion';
export { safeEqual } from './safe-compare';
export { normaliseHost } from '@aplt/db';
export { bearerToken } from './trust-plugin';
export { OPERATOR_ROLE, type OperatorOptions } from './operator-plugin';
export { checkFeatureDeclaration, featureTag, needsFeatureDeclaration } from './license-guard';
export { badStringPath } from './string-input';
export { drainRequest, payloadTooLarge } from './body-drain';
export { escapeHtml, scriptJson } from './html';
export { csrfGuard, issueCsrfToken, type CsrfCheck } from './csrf';

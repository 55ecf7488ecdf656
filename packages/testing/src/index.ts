// The harness pieces owned by the packages they test, so that those packages need no @aplt/testing.
export {
  createTestFleet,
  createTestMysqlDatabase,
  createTestPgDatabase,
  createTestRedis,
  dropFleetDatabases,
  startPgCluster,
  templateName,
  testServers,
  uniqueName,
  waitForLockHolder,
  waitForLockWaiter,
  type PgCluster,
  type TestFleet,
  type TestMysqlDatabase,
  type TestPgDatabase,
  type TestRedis,
  type TestServers,
  type TestTenantDatabases,
  type TestTenantSpec,
} from '@aplt/db/testing';
export { testSecrets, viaProxy } from '@aplt/http/testing';
export { startTestRedisServer, type TestRedisServer } from './redis-server';
export { startSmtpSink, type SmtpSink, type ReceivedMail } from './smtp-sink';
export { startHttpReceiver, type HttpReceiver, type ReceivedRequest } from './http-receiver';
export { httpRequest, isConnectionReset, statusOrReset, type HttpResponse } from './http-request';
export { freePort } from '@aplt/proxy';
export { startTestProxy, type TestProxy } from './proxy';
export { launchChromium } from './chromium';
export {
  startPartnerFake,
  type PartnerFake,
  type PartnerFault,
  type PartnerRequest,
  type PartnerRoute,
  type PartnerTransaction,
} from './partner-fake';

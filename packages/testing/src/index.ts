export { testServers, type TestServers } from './servers';
export {
  createTestPgDatabase,
  createTestMysqlDatabase,
  dropFleetDatabases,
  templateName,
  type TestPgDatabase,
  type TestMysqlDatabase,
  uniqueName,
} from './databases';
export { createTestFleet, type TestFleet, type TestTenantDatabases, type TestTenantSpec } from './fleet';
export { createTestRedis, type TestRedis } from './redis';
export { startTestRedisServer, type TestRedisServer } from './redis-server';
export { startSmtpSink, type SmtpSink, type ReceivedMail } from './smtp-sink';
export { startHttpReceiver, type HttpReceiver, type ReceivedRequest } from './http-receiver';
export { httpRequest, type HttpResponse } from './http-request';
export { freePort } from '@aplt/proxy';
export { startTestProxy, type TestProxy } from './proxy';
export { launchChromium } from './chromium';
export { testSecrets, viaProxy } from './secrets';
export {
  startPartnerFake,
  type PartnerFake,
  type PartnerFault,
  type PartnerRequest,
  type PartnerRoute,
  type PartnerTransaction,
} from './partner-fake';
export { startPgCluster, type PgCluster } from './pg-cluster';

import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { signActorToken, tenantJwtSecret } from '@aplt/http';
import { allFeaturesClient } from '@aplt/licensing';
import { createRedis, QueueClient } from '@aplt/queue';
import { createAccessAppForTest } from '@aplt/service-access/testing';
import { buildApp as buildDevprojects } from '@aplt/service-devprojects/app';
import { loadConfig as devprojectsConfig } from '@aplt/service-devprojects/config';
import { gitRepositoriesFromConfig } from '@aplt/service-devprojects/git';
import {
  createTestFleet,
  createTestMysqlDatabase,
  createTestRedis,
  type SmtpSink,
  startSmtpSink,
  startTestProxy,
  type TestFleet,
  type TestMysqlDatabase,
  type TestProxy,
  type TestRedis,
  testSecrets,
} from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp as buildPortal } from '../src/app';
import { otpChannelFromConfig } from '../src/auth/otp-channel';
import { loadConfig as portalConfig } from '../src/config';
import { addUser, type CsrfPair, mailedCode, PASSWORD, sessionCookie, withCsrf } from './helpers';

const exec = promisify(execFile);

describe('create a dev project from a portal ticket, through the proxy', () => {
  let fleet: TestFleet;
  let mysql: TestMysqlDatabase;
  let redis: TestRedis;
  let sink: SmtpSink;
  let proxy: TestProxy;
  let tmp: string;
  let otp: ReturnType<typeof otpChannelFromConfig>;
  let producer: ReturnType<typeof createRedis>;
  let queue: QueueClient;
  let jwtSecret: string;

  beforeAll(async () => {
    [fleet, mysql, redis, sink] = await Promise.all([
      createTestFleet([{ id: 'acme' }, { id: 'globex' }]),
      createTestMysqlDatabase(),
      createTestRedis(),
      startSmtpSink(),
    ]);
    tmp = await mkdtemp(join(tmpdir(), 'portal-e2e-'));
    const env = {
      ...process.env,
      ...fleet.env,
      ...testSecrets(),
      LOG_LEVEL: 'silent',
      REDIS_URL: redis.url,
      REDIS_PREFIX: redis.prefix,
      DEVPROJECTS_GIT_DIR: join(tmp, 'repos'),
      PUBLIC_PROXY_URL: 'http://127.0.0.1:8080',
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(sink.port),
      SMTP_TLS_REJECT_UNAUTHORIZED: 'false',
      PORTAL_BCRYPT_ROUNDS: '4',
    };
    const dpConfig = devprojectsConfig(env);
    jwtSecret = dpConfig.JWT_SECRET;
    producer = createRedis(redis.url);
    queue = new QueueClient(producer, redis.prefix);
    const devprojects = await buildDevprojects(
      {
        registry: fleet.registry,
        databases: fleet.databases,
        licenses: allFeaturesClient,
        git: gitRepositoriesFromConfig(dpConfig),
        queue,
      },
      dpConfig,
    );
    // Listen first: the portal must know the devprojects address before it is built.
    await devprojects.listen({ port: 0, host: '127.0.0.1' });
    const devprojectsUrl = `http://127.0.0.1:${(devprojects.server.address() as AddressInfo).port}`;
    otp = otpChannelFromConfig(portalConfig(env), { warn: () => {} });
    const portal = await buildPortal(
      { db: mysql.db, otp },
      portalConfig({ ...env, DEVPROJECTS_URL: devprojectsUrl }),
    );
    await addUser(mysql.db, 'support@portal.test', 'admin');
    await addUser(mysql.db, 'client@shop.test', 'client');
    proxy = await startTestProxy({
      access: await createAccessAppForTest(fleet.registry),
      portal,
      devprojects: {
        listen: async () => devprojectsUrl,
        server: devprojects.server,
        close: () => devprojects.close(),
      },
    });
  });

  afterAll(async () => {
    await proxy?.stop();
    otp?.close();
    await queue?.close();
    producer?.disconnect();
    await sink?.close();
    await Promise.allSettled([mysql?.drop(), redis?.cleanup(), fleet?.cleanup()]);
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  // This browser's CSRF pair, fetched through the proxy like the page's script would.
  let csrf: CsrfPair | undefined;
  const portal = async (method: string, path: string, cookie?: string, body: object = {}) => {
    if (!csrf) {
      const res = await proxy.request('portal.localhost', '/api/csrf');
      const set = ([] as string[]).concat(res.headers['set-cookie'] as string | string[]);
      csrf = { token: res.json().csrf_token, cookie: set[0]!.split(';')[0]! };
    }
    return proxy.request('portal.localhost', path, {
      method,
      headers: withCsrf(csrf, cookie ? { cookie } : {}),
      ...(method === 'GET' ? {} : { body }),
    });
  };

  async function signIn(email: string): Promise<string> {
    const seen = sink.messages.length;
    const login = await portal('POST', '/api/auth/login', undefined, { email, password: PASSWORD });
    expect(login.status).toBe(200);
    const cookie = sessionCookie(login.headers['set-cookie']);
    const code = await mailedCode(sink, email, seen);
    expect((await portal('POST', '/api/auth/verify-2fa', cookie, { code })).status).toBe(200);
    return cookie;
  }

  it('refuses a wrong password through the proxy with the spec body', async () => {
    const res = await portal('POST', '/api/auth/login', undefined, {
      email: 'client@shop.test',
      password: 'nope',
    });
    expect(res.status).toBe(401);
    expect(res.json()).toEqual({ success: false, message: 'Invalid credentials' });
  });

  it('logs in with the e-mailed code, opens a ticket, makes its dev project and links both ways', async () => {
    const client = await signIn('client@shop.test');
    const created = await portal('POST', '/api/support/tickets', client, {
      subject: 'Checkout button does nothing',
      description: 'Clicking "order" on the cart page has no effect',
      category: 'bug',
      priority: 'urgent',
      tenant_id: 'acme',
    });
    expect(created.status).toBe(201);
    const ticket = created.json().ticket;

    // A client cannot make dev projects.
    expect(
      (await portal('POST', `/api/support/tickets/${ticket.id}/create-dev-project`, client)).status,
    ).toBe(403);

    const support = await signIn('support@portal.test');
    const res = await portal('POST', `/api/support/tickets/${ticket.id}/create-dev-project`, support);
    expect(res.status).toBe(201);
    const body = res.json();
    const project = body.dev_project;
    expect(project).toMatchObject({
      project_type: 'bugfix',
      priority: 'critical',
      status: 'draft',
      ticket_id: ticket.id,
      ticket_number: ticket.ticket_number,
    });
    expect(project.branch_name).toBe(`dev-project/${project.project_code}`);
    expect(body.links).toEqual({
      ticket: `http://portal.localhost/support?ticket=${ticket.id}`,
      dev_project: `http://acme.localhost:8080/app/settings/dev-projects?code=${project.project_code}`,
      dev_project_by_id: `http://acme.localhost:8080/app/settings/dev-projects?project=${project.id}`,
    });
    expect(body.ticket).toMatchObject({
      dev_project_id: project.id,
      dev_project_branch: project.branch_name,
      dev_project_code: project.project_code,
    });

    // The ticket as the client now sees it carries the link.
    const seen = (await portal('GET', `/api/support/tickets/${ticket.id}`, client)).json().ticket;
    expect(seen).toMatchObject({ dev_project_id: project.id, dev_project_branch: project.branch_name });

    // The branch is real, in acme's repository, at main, made by the bot.
    const gitDir = join(tmp, 'repos', 'acme.git');
    const { stdout: branches } = await exec('git', [
      '--git-dir',
      gitDir,
      'branch',
      '--list',
      'dev-project/*',
    ]);
    expect(branches.trim()).toBe(project.branch_name);

    // The tenant admin sees the project through the proxy, with the ticket on it.
    const admin = await signActorToken(
      tenantJwtSecret(jwtSecret, 'acme'),
      { actor_id: 'user_admin', actor_type: 'user', auth_identity_id: 'authid_admin', app_metadata: {} },
      600,
    );
    const auth = { authorization: `Bearer ${admin}` };
    const viaProxy = await proxy.request(
      'acme.localhost',
      `/admin/dev-projects?code=${project.project_code}`,
      {
        headers: auth,
      },
    );
    expect(viaProxy.status).toBe(200);
    expect(viaProxy.json().dev_project).toMatchObject({
      id: project.id,
      ticket_id: ticket.id,
      ticket_number: ticket.ticket_number,
      tenant: 'acme',
    });
    const status = await proxy.request(
      'acme.localhost',
      `/admin/dev-projects/status?project_id=${project.id}`,
      {
        headers: auth,
      },
    );
    expect(status.json().git).toMatchObject({ branch: project.branch_name, ahead: 0 });
    // Not in globex: the project went to the ticket's tenant only.
    const globex = await signActorToken(
      tenantJwtSecret(jwtSecret, 'globex'),
      { actor_id: 'user_admin', actor_type: 'user', auth_identity_id: 'authid_admin', app_metadata: {} },
      600,
    );
    const elsewhere = await proxy.request(
      'globex.localhost',
      `/admin/dev-projects?code=${project.project_code}`,
      {
        headers: { authorization: `Bearer ${globex}` },
      },
    );
    expect(elsewhere.status).toBe(404);

    // A second click does not make a second project.
    const again = await portal('POST', `/api/support/tickets/${ticket.id}/create-dev-project`, support);
    expect(again.status).toBe(409);
    const list = await proxy.request('acme.localhost', '/admin/dev-projects', { headers: auth });
    expect(list.json().count).toBe(1);

    // The internal create route is not reachable through the proxy, not even with the service token.
    const internal = await proxy.request('acme.localhost', '/internal/dev-projects/from-ticket', {
      method: 'POST',
      headers: { authorization: `Bearer ${testSecrets().SERVICE_TOKEN}` },
      body: {},
    });
    expect(internal.status).not.toBe(201);
    expect(internal.status).not.toBe(200);
  });
});

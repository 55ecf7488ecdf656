import { createTestFleet, startSmtpSink, type SmtpSink, type TestFleet } from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../src/auth/login.service';
import { insertSession } from '../src/auth/session.repository';
import { newToken, tokenHash } from '../src/auth/tokens';
import { createAccessAppForTest } from './access-app';
import { codeFromMail, csrfSession, injectSend, type Send, startLogin } from './helpers';

const STRONG = 'Strong-Password-2026!';

describe('user administration API', () => {
  let fleet: TestFleet;
  let smtp: SmtpSink;
  let app: Awaited<ReturnType<typeof createAccessAppForTest>>;
  let send: Send;
  let adminId = 0;
  const headers = { admin: {} as Record<string, string>, plain: {} as Record<string, string> };

  async function sessionFor(userId: number) {
    const token = newToken();
    await insertSession(app.accessDb!, {
      id: tokenHash(token),
      userId,
      ip: '127.0.0.9',
      userAgent: 't',
      hours: 1,
    });
    const csrf = await csrfSession(send);
    return { cookie: `${csrf.cookie}; aplt_session=${token}`, 'x-csrf-token': csrf.token };
  }

  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'acme' }]);
    smtp = await startSmtpSink();
    app = await createAccessAppForTest(fleet.registry, {
      SMTP_PORT: String(smtp.port),
      SMTP_TLS_REJECT_UNAUTHORIZED: 'false',
    });
    send = injectSend(app);
    const db = { db: app.accessDb! };
    adminId = (await createUser(db, { email: 'root@example.com', password: STRONG, roles: ['access-admin'] }))
      .id;
    const plain = await createUser(db, { email: 'plain@example.com', password: STRONG, roles: [] });
    headers.admin = await sessionFor(adminId);
    headers.plain = await sessionFor(plain.id);
  });
  afterAll(async () => {
    await app?.close();
    await smtp?.close();
    await fleet?.cleanup();
  });

  it('is for access admins only', async () => {
    expect((await send('/api/admin/users')).status).toBe(401);
    const denied = await send('/api/admin/users', { headers: headers.plain });
    expect(denied.status).toBe(403);
    expect(denied.json()).toMatchObject({ type: 'not_allowed', required_role: 'access-admin' });
    const list = await send('/api/admin/users', { headers: headers.admin });
    expect(list.status).toBe(200);
    expect(list.json().map((u: { email: string }) => u.email)).toEqual([
      'root@example.com',
      'plain@example.com',
    ]);
  });

  it('creates users with a checked password, known roles and tenant; the user changes the password at first login', async () => {
    const create = (body: object) =>
      send('/api/admin/users', { method: 'POST', headers: headers.admin, body });
    expect((await create({ email: 'weak@example.com', password: 'short' })).status).toBe(422);
    expect((await create({ email: 'x@example.com', password: STRONG, roles: ['root'] })).status).toBe(400);
    const foreign = await create({ email: 'x@example.com', password: STRONG, tenant_id: 'nope' });
    expect(foreign.status).toBe(400);
    expect(foreign.json()).toMatchObject({ type: 'invalid_data', tenant_id: 'nope' });
    const made = await create({
      email: 'Tenant.Admin@example.com',
      password: STRONG,
      roles: ['license-admin'],
      tenant_id: 'acme',
    });
    expect(made.status).toBe(201);
    expect(made.json()).toMatchObject({
      email: 'tenant.admin@example.com',
      roles: ['license-admin'],
      tenant_id: 'acme',
      must_change_password: true,
      disabled: false,
    });
    const dup = await create({ email: 'tenant.admin@example.com', password: STRONG });
    expect(dup.status).toBe(409);

    const { res, csrf } = await startLogin(send, 'tenant.admin@example.com', STRONG);
    expect(res.status).toBe(200);
    const mail = await smtp.waitFor((m) => m.envelope.to.includes('tenant.admin@example.com'));
    const verify = await send('/api/auth/verify', {
      method: 'POST',
      headers: { 'x-csrf-token': csrf.token, cookie: csrf.cookie },
      body: { challenge_id: res.json().challenge_id, code: codeFromMail(mail.parsed.text ?? '') },
    });
    expect(verify.json()).toMatchObject({ step: 'change_password' });
  });

  it('changes roles at once, disables a user everywhere, and refuses to lock out the acting admin', async () => {
    const users = (await send('/api/admin/users', { headers: headers.admin })).json() as Array<{
      id: number;
      email: string;
    }>;
    const plain = users.find((u) => u.email === 'plain@example.com')!;
    const patch = (id: number, body: object) =>
      send(`/api/admin/users/${id}`, { method: 'PATCH', headers: headers.admin, body });

    expect((await send('/api/auth/me', { headers: headers.plain })).json().roles).toEqual([]);
    expect((await patch(plain.id, { roles: ['license-admin'] })).status).toBe(200);
    expect((await send('/api/auth/me', { headers: headers.plain })).json().roles).toEqual(['license-admin']);

    expect((await patch(plain.id, {})).status).toBe(400);
    expect((await patch(999_999, { disabled: true })).status).toBe(404);
    const self = await patch(adminId, { disabled: true });
    expect(self.status).toBe(409);
    expect((await patch(adminId, { roles: ['license-admin'] })).status).toBe(409);

    const off = await patch(plain.id, { disabled: true });
    expect(off.json()).toMatchObject({ disabled: true });
    expect((await send('/api/auth/me', { headers: headers.plain })).status).toBe(401);
    const count = await app
      .accessDb!.selectFrom('access_sessions')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_id', '=', plain.id)
      .where('revoked_at', 'is', null)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it('sets a temporary password that ends the sessions and must be changed', async () => {
    const users = (await send('/api/admin/users', { headers: headers.admin })).json() as Array<{
      id: number;
      email: string;
    }>;
    const target = users.find((u) => u.email === 'tenant.admin@example.com')!;
    const fresh = await sessionFor(target.id);
    expect((await send('/api/auth/me', { headers: fresh })).status).toBe(200);
    const weak = await send(`/api/admin/users/${target.id}/password`, {
      method: 'POST',
      headers: headers.admin,
      body: { password: 'abc' },
    });
    expect(weak.status).toBe(422);
    const reset = await send(`/api/admin/users/${target.id}/password`, {
      method: 'POST',
      headers: headers.admin,
      body: { password: 'Temporary-Pass-99!' },
    });
    expect(reset.status).toBe(200);
    expect((await send('/api/auth/me', { headers: fresh })).status).toBe(401);
    const row = await app
      .accessDb!.selectFrom('access_users')
      .select(['must_change_password'])
      .where('id', '=', target.id)
      .executeTakeFirstOrThrow();
    expect(row.must_change_password).toBe(true);
  });
});

import type { CommerceDatabase } from '@aplt/db';
import { signActorToken, tenantJwtSecret } from '@aplt/http';
import { allFeaturesClient } from '@aplt/licensing';
import { MEDUSA_HASH_PREFIX } from '@aplt/passwords';
import {
  createTestFleet,
  createTestRedis,
  type SmtpSink,
  startSmtpSink,
  type TestFleet,
  type TestRedis,
  viaProxy,
} from '@aplt/testing';
import * as scryptModule from 'scrypt-kdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAdmin } from '../../../deploy/fleet/seeds/demo-tenants';
import { buildApp } from '../src/app';
import {
  adminUrlOf,
  linkIn,
  MAIL_PASSWORD,
  registerPublicUrls,
  secrets,
  seedDemoAdmins,
  storedHash,
  testConfig,
} from './helpers';

const JWT_SECRET = secrets.JWT_SECRET;

// The independent side of the interop check: the scrypt-kdf library itself (default export class).
const Scrypt = (
  scryptModule as unknown as {
    default: {
      kdf(p: string, o: { logN: number; r: number; p: number }): Promise<Uint8Array>;
      verify(k: Uint8Array, p: string): Promise<boolean>;
    };
  }
).default;

describe('admin authentication (Medusa v2 emailpass)', () => {
  let fleet: TestFleet;
  let redis: TestRedis;
  let sink: SmtpSink;
  let app: Awaited<ReturnType<typeof buildApp>>;

  const post = (host: string, url: string, payload?: object, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url, payload, headers: { ...viaProxy(host), ...headers } });
  const login = (host: string, password: string, email = demoAdmin.email) =>
    post(host, '/auth/user/emailpass', { email, password });

  beforeAll(async () => {
    fleet = await createTestFleet([{ id: 'acme' }, { id: 'beta' }, { id: 'gamma' }]);
    await seedDemoAdmins(fleet.registry, fleet.databases);
    await registerPublicUrls(fleet);
    [redis, sink] = await Promise.all([createTestRedis(), startSmtpSink()]);
    app = await buildApp(
      { registry: fleet.registry, databases: fleet.databases, licenses: allFeaturesClient },
      testConfig(redis, sink, { LOGIN_RATE_MAX: '8', LOGIN_RATE_WINDOW_SECONDS: '600' }),
    );
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
    await sink?.close();
    await fleet?.cleanup();
    await redis?.cleanup();
  });

  it('logs in with the demo admin and returns a Medusa-shaped token of this tenant', async () => {
    const res = await login('acme.localhost', demoAdmin.password);
    expect(res.statusCode).toBe(200);
    const { token } = res.json();
    const payload = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
    expect(Object.keys(payload).sort()).toEqual([
      'actor_id',
      'actor_type',
      'app_metadata',
      'auth_identity_id',
      'exp',
      'iat',
      'iat_ms',
    ]);
    // iat_ms dates the token to the millisecond (revocation), consistent with Medusa's iat.
    expect(Math.floor(payload.iat_ms / 1000)).toBe(payload.iat);
    expect(payload.actor_type).toBe('user');
    expect(payload.actor_id).toMatch(/^user_/);
    expect(payload.app_metadata).toEqual({ user_id: payload.actor_id });
    expect(payload.auth_identity_id).toMatch(/^authid_/);
    expect(payload.exp - payload.iat).toBe(86_400);
  });

  it('refreshes a session token of this tenant (Medusa /auth/token/refresh) and nothing else', async () => {
    const { token } = (await login('acme.localhost', demoAdmin.password)).json();
    const refreshed = await post('acme.localhost', '/auth/token/refresh', undefined, {
      authorization: `Bearer ${token}`,
    });
    expect(refreshed.statusCode).toBe(200);
    const before = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
    const after = JSON.parse(Buffer.from(refreshed.json().token.split('.')[1], 'base64url').toString());
    expect(after).toMatchObject({
      actor_id: before.actor_id,
      actor_type: 'user',
      auth_identity_id: before.auth_identity_id,
    });
    const foreign = await post('beta.localhost', '/auth/token/refresh', undefined, {
      authorization: `Bearer ${token}`,
    });
    expect(foreign.statusCode).toBe(401);
    const reset = await signActorToken(
      tenantJwtSecret(JWT_SECRET, 'acme'),
      { entity_id: demoAdmin.email, provider: 'emailpass', actor_type: 'user', jti: 'x' },
      600,
    );
    expect(
      (await post('acme.localhost', '/auth/token/refresh', undefined, { authorization: `Bearer ${reset}` }))
        .statusCode,
    ).toBe(401);
    expect((await post('acme.localhost', '/auth/token/refresh')).statusCode).toBe(401);
  });

  it('answers a wrong password and an unknown e-mail with the same 401', async () => {
    const wrong = await login('acme.localhost', 'not-the-password-1');
    const unknown = await login('acme.localhost', demoAdmin.password, 'nobody@aplt.localhost');
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ type: 'unauthorized', message: 'Invalid email or password' });
    }
    // The e-mail is matched exactly (Medusa).
    expect(
      (await login('acme.localhost', demoAdmin.password, demoAdmin.email.toUpperCase())).statusCode,
    ).toBe(401);
  });

  it('verifies hashes made by scrypt-kdf itself, and scrypt-kdf verifies ours', async () => {
    const db = fleet.databases.commerce<CommerceDatabase>((await fleet.registry.get('gamma'))!);
    const foreign = Buffer.from(await Scrypt.kdf('Foreign-Hash-42', { logN: 15, r: 8, p: 1 })).toString(
      'base64',
    );
    await db
      .updateTable('provider_identity')
      .set({ provider_metadata: JSON.stringify({ password: foreign }) })
      .where('entity_id', '=', demoAdmin.email)
      .execute();
    expect((await login('gamma.localhost', 'Foreign-Hash-42')).statusCode).toBe(200);

    const ours = await storedHash(
      fleet.databases.commerce<CommerceDatabase>((await fleet.registry.get('acme'))!),
      demoAdmin.email,
    );
    expect(ours.startsWith(MEDUSA_HASH_PREFIX)).toBe(true);
    expect(await Scrypt.verify(new Uint8Array(Buffer.from(ours, 'base64')), demoAdmin.password)).toBe(true);
  });

  it('reset-password: 201 for known and unknown, 400 without identifier, e-mail over STARTTLS with the link', async () => {
    const unknown = await post('beta.localhost', '/auth/user/emailpass/reset-password', {
      identifier: 'ghost@aplt.localhost',
    });
    expect(unknown.statusCode).toBe(201);
    const missing = await post('beta.localhost', '/auth/user/emailpass/reset-password', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().type).toBe('invalid_data');

    const known = await post('beta.localhost', '/auth/user/emailpass/reset-password', {
      identifier: demoAdmin.email,
    });
    expect(known.statusCode).toBe(201);
    const mail = await sink.waitFor((m) => m.envelope.to.includes(demoAdmin.email));
    expect(mail.secure).toBe(true);
    expect(mail.auth).toEqual({ username: 'accounts@acme.localhost', password: MAIL_PASSWORD });
    expect(mail.parsed.from?.value[0]).toEqual({ name: 'Acme Accounts', address: 'accounts@acme.localhost' });
    expect(mail.parsed.html).toContain('Reset your password');
    const link = linkIn(mail, /http:\/\/beta\.localhost\S*\/app\/reset-password\?token=[^&\s]+&email=\S+/);
    // The registry's public URL, not the Host of the request.
    expect(link.startsWith(`${adminUrlOf('beta')}/app/reset-password?`)).toBe(true);
    const url = new URL(link);
    expect(url.searchParams.get('email')).toBe(demoAdmin.email);
    const token = url.searchParams.get('token')!;
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
    expect(claims).toMatchObject({ entity_id: demoAdmin.email, provider: 'emailpass', actor_type: 'user' });
    expect(claims.exp - claims.iat).toBe(900);
    expect(sink.messages.some((m) => m.envelope.to.includes('ghost@aplt.localhost'))).toBe(false);

    // Rules first: a weak password is refused and the token stays usable.
    const weak = await post(
      'beta.localhost',
      '/auth/user/emailpass/update',
      { password: 'short' },
      { authorization: `Bearer ${token}` },
    );
    expect(weak.statusCode).toBe(400);
    expect(weak.json().type).toBe('invalid_data');

    // A token of this tenant is worthless on another.
    const elsewhere = await post(
      'acme.localhost',
      '/auth/user/emailpass/update',
      { password: 'Brand-New-Pass-9' },
      { authorization: `Bearer ${token}` },
    );
    expect(elsewhere.statusCode).toBe(401);

    const ok = await post(
      'beta.localhost',
      '/auth/user/emailpass/update',
      { password: 'Brand-New-Pass-9' },
      { authorization: `Bearer ${token}` },
    );
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ success: true });
    expect(ok.headers['x-password-sync-run']).toMatch(/^psync_/);

    const hash = await storedHash(
      fleet.databases.commerce<CommerceDatabase>((await fleet.registry.get('beta'))!),
      demoAdmin.email,
    );
    expect(hash.startsWith('c2NyeXB0AA8AAAAI')).toBe(true);
    expect(Buffer.from(hash, 'base64')).toHaveLength(96);
    expect(await Scrypt.verify(new Uint8Array(Buffer.from(hash, 'base64')), 'Brand-New-Pass-9')).toBe(true);
    expect((await login('beta.localhost', 'Brand-New-Pass-9')).statusCode).toBe(200);
    expect((await login('beta.localhost', demoAdmin.password)).statusCode).toBe(401);

    const reused = await post(
      'beta.localhost',
      '/auth/user/emailpass/update',
      { password: 'Another-Pass-10' },
      { authorization: `Bearer ${token}` },
    );
    expect(reused.statusCode).toBe(401);
    expect(reused.json()).toEqual({ type: 'unauthorized', message: 'Invalid token' });
  });

  it('update refuses expired, forged, wrong-actor, session and missing tokens with 401 Invalid token', async () => {
    const key = tenantJwtSecret(JWT_SECRET, 'beta');
    const claims = { entity_id: demoAdmin.email, provider: 'emailpass', actor_type: 'user', jti: 'f0e1d2c3' };
    const expired = await signActorToken(key, claims, -60);
    const forged = await signActorToken(
      new TextEncoder().encode('someone-elses-secret-0123456789'),
      claims,
      600,
    );
    const wrongActor = await signActorToken(key, { ...claims, actor_type: 'customer' }, 600);
    const notStored = await signActorToken(key, claims, 600);
    const session = (await login('beta.localhost', 'Brand-New-Pass-9')).json().token as string;
    for (const token of [expired, forged, wrongActor, notStored, session, 'garbage']) {
      const res = await post(
        'beta.localhost',
        '/auth/user/emailpass/update',
        { password: 'Valid-Password-77' },
        { authorization: `Bearer ${token}` },
      );
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ type: 'unauthorized', message: 'Invalid token' });
    }
    const none = await post('beta.localhost', '/auth/user/emailpass/update', {
      password: 'Valid-Password-77',
    });
    expect(none.json()).toEqual({ type: 'unauthorized', message: 'Invalid token' });
  });

  it('rate-limits login with a clear 429 per tenant host and client', async () => {
    // Limit 8 per 10-minute window (config above): the window cannot roll over mid-test.
    const attempts = [];
    for (let i = 0; i < 10; i++) attempts.push(await login('gamma.localhost', 'wrong-password-1'));
    const firstLimited = attempts.findIndex((r) => r.statusCode === 429);
    expect(firstLimited).toBeGreaterThan(0);
    expect(firstLimited).toBeLessThanOrEqual(8);
    expect(attempts.slice(0, firstLimited).every((r) => r.statusCode === 401)).toBe(true);
    const limited = attempts[firstLimited]!;
    expect(limited.json()).toMatchObject({
      type: 'rate_limited',
      message: expect.stringContaining('Too many attempts'),
    });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another tenant is not affected.
    expect((await login('acme.localhost', demoAdmin.password)).statusCode).toBe(200);
  });
});

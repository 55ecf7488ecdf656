import type { TenantRegistry } from '@aplt/db';
import { z } from 'zod';
import type { AccessApp } from '../app';
import type { AccessDb } from '../db';
import type { IdentityCache } from '../forward-auth/identity-cache';
import { ensureCsrfToken, requireRole, requireSession } from './guards';
import { usersPage } from './users-page';
import { ACCESS_ADMIN_ROLE, knownRoles } from './roles';
import * as admin from './user-admin.service';

const user = z.object({
  id: z.number(),
  email: z.string(),
  roles: z.array(z.string()),
  tenant_id: z.string().nullable(),
  disabled: z.boolean(),
  must_change_password: z.boolean(),
  password_changed_at: z.date(),
  created_at: z.date(),
  /** Set while the user signs in with an authenticator app. */
  totp_enabled_at: z.date().nullable(),
});
const roles = z.array(z.enum(knownRoles)).max(knownRoles.length);
const tenantId = z.string().max(50).nullable();

/** User administration for access admins (the first admin comes from `pnpm access:create-admin`). */
export async function usersRoutes(
  app: AccessApp,
  deps: { db: AccessDb; registry: TenantRegistry; identities: IdentityCache },
) {
  const preHandler = [requireSession(deps.identities), requireRole(ACCESS_ADMIN_ROLE)];
  const byId = z.object({ id: z.coerce.number().int().positive() });

  app.get('/admin/users', { preHandler }, async (request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(usersPage({ csrf: ensureCsrfToken(request, reply), email: request.identity!.email })),
  );

  app.get('/api/admin/users', { preHandler, schema: { response: { 200: z.array(user) } } }, async () =>
    admin.listUsers(deps.db),
  );
  app.post(
    '/api/admin/users',
    {
      preHandler,
      schema: {
        body: z.object({
          email: z.string().email().max(255),
          password: z.string().min(1).max(1000),
          roles: roles.default([]),
          tenant_id: tenantId.optional(),
        }),
        response: { 201: user },
      },
    },
    async (request, reply) => reply.status(201).send(await admin.addUser(deps, request.body)),
  );
  app.patch(
    '/api/admin/users/:id',
    {
      preHandler,
      schema: {
        params: byId,
        body: z
          .object({
            roles: roles.optional(),
            tenant_id: tenantId.optional(),
            disabled: z.boolean().optional(),
          })
          .refine((b) => Object.keys(b).length > 0, 'Give roles, tenant_id or disabled'),
        response: { 200: user },
      },
    },
    async (request) => admin.updateUser(deps, request.identity!, request.params.id, request.body),
  );
  app.post(
    '/api/admin/users/:id/password',
    {
      preHandler,
      schema: {
        params: byId,
        body: z.object({ password: z.string().min(1).max(1000) }),
        response: { 200: z.object({ ok: z.literal(true) }) },
      },
    },
    async (request) => {
      await admin.resetPassword(deps, request.params.id, request.body.password);
      return { ok: true as const };
    },
  );
  // A user who lost both the phone and the recovery codes: back to the e-mailed code.
  app.delete(
    '/api/admin/users/:id/totp',
    { preHandler, schema: { params: byId, response: { 200: z.object({ ok: z.literal(true) }) } } },
    async (request) => {
      await admin.removeAuthenticator(deps, request.params.id);
      return { ok: true as const };
    },
  );
}

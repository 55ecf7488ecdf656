import { type App, notFound, requireActor } from '@aplt/http';
import type { TenantDatabases } from '@aplt/db';
import { z } from 'zod';
import { findLiveUser } from './user.repository';

const userBody = z.object({
  id: z.string(),
  email: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
});

/**
 * Medusa's `GET /admin/users/me`: the signed-in admin user, which the panel shows in its user
 * menu and uses to learn whether its stored token still works (a 401 sends it to sign-in).
 */
export async function meRoutes(app: App, deps: { databases: TenantDatabases }) {
  app.get(
    '/admin/users/me',
    {
      config: {
        feature: null,
        featureReason: 'who is signed in: the admin panel needs it whatever is licensed',
      },
      preHandler: requireActor('user'),
      schema: { response: { 200: z.object({ user: userBody }) } },
    },
    async (request) => {
      const user = await findLiveUser(deps.databases.commerce(request.tenant), request.actor!.actorId);
      if (!user) throw notFound('User not found');
      return { user };
    },
  );
}

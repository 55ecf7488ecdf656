import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import { type App, HttpError, requireActor } from '@aplt/http';
import type { QueueClient, QueueName } from '@aplt/queue';

const BASE = '/admin/queues';
const dashboardQueues: QueueName[] = ['connectors', 'commerce-sync', 'tenant-update'];

/**
 * Bull Board for operators at /admin/queues, behind the admin JWT. Bull Board installs its own
 * error handler in its scope, so the guard answers with our error body itself instead of throwing.
 */
export async function queueDashboard(app: App, queues: QueueClient) {
  const serverAdapter = new FastifyAdapter();
  serverAdapter.setBasePath(BASE);
  createBullBoard({
    queues: dashboardQueues.map((name) => new BullMQAdapter(queues.queue(name), { readOnlyMode: false })),
    serverAdapter,
  });
  const guard = requireActor('user');
  await app.register(async (scope) => {
    scope.addHook('preHandler', async (request, reply) => {
      try {
        await guard(request);
      } catch (err) {
        if (err instanceof HttpError) return reply.code(err.statusCode).send(err.body());
        throw err;
      }
    });
    await scope.register(serverAdapter.registerPlugin() as any, { prefix: BASE });
  });
}

import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export type ReadinessCheck = () => Promise<unknown>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Registers a dependency that /readyz checks (database, Redis, browser pool, ...). */
    addReadinessCheck(name: string, check: ReadinessCheck): void;
    /** Turns /readyz 503 from now on (shutdown began; see runService), while requests are still served. */
    startDraining(): void;
  }
}

const CHECK_TIMEOUT_MS = 2_000;

/**
 * `/healthz` is shallow liveness (the process answers); `/readyz` checks every registered
 * dependency and turns 503 as soon as shutdown begins, so the proxy drains us first.
 */
export const healthPlugin = fp(
  async (app: FastifyInstance) => {
    const checks = new Map<string, ReadinessCheck>();
    let closing = false;
    app.decorate('addReadinessCheck', (name: string, check: ReadinessCheck) => {
      checks.set(name, check);
    });
    app.decorate('startDraining', () => {
      closing = true;
    });
    app.addHook('preClose', async () => {
      closing = true;
    });

    const routeConfig = { tenant: false, public: true } as const;
    app.get('/healthz', { config: routeConfig, schema: { hide: true } }, async () => ({ status: 'ok' }));
    app.get('/readyz', { config: routeConfig, schema: { hide: true } }, async (_request, reply) => {
      if (closing) return reply.status(503).send({ status: 'shutting_down', checks: {} });
      const results: Record<string, string> = {};
      await Promise.all(
        [...checks].map(async ([name, check]) => {
          let timer: NodeJS.Timeout | undefined;
          try {
            await Promise.race([
              check(),
              new Promise((_, reject) => {
                timer = setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS);
              }),
            ]);
            results[name] = 'ok';
          } catch (err) {
            results[name] = err instanceof Error ? err.message : 'failed';
          } finally {
            clearTimeout(timer);
          }
        }),
      );
      const ready = Object.values(results).every((r) => r === 'ok');
      return reply
        .status(ready ? 200 : 503)
        .send({ status: ready ? 'ready' : 'unavailable', checks: results });
    });
  },
  { name: 'aplt-health' },
);

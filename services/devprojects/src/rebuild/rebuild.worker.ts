import type { TenantDatabases, TenantRegistry } from '@aplt/db';
import { type Redis, startWorker, type WorkerHandle } from '@aplt/queue';
import type { GitRepositories } from '../git/bot-repository';
import { runRebuild } from './rebuild.service';

/** The one handler of the 'rebuild' queue. Rebuilds run one at a time: they share the build host. */
export function startRebuildWorker(
  deps: { registry: TenantRegistry; databases: TenantDatabases; git: GitRepositories },
  opts: { connection: Redis; prefix: string },
): WorkerHandle {
  return startWorker(
    'rebuild',
    { 'rebuild.tenant': (payload) => runRebuild(deps, payload) },
    { ...opts, concurrency: 1 },
  );
}

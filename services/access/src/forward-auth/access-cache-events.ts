import {
  invalidationChannel,
  type InvalidationSubscriber,
  publishInvalidation,
  subscribeInvalidations,
} from '@aplt/licensing';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { IdentityCache } from './identity-cache';
import type { Whitelist } from './whitelist';

/**
 * Keeps the per-process caches of forward auth (identities, whitelist) in step across replicas
 * of the access service. A revocation (logout, a revoked session or device, a user disabled,
 * re-roled or given a new password) or a whitelist change made through one replica is published
 * on `<prefix>:invalidate:access`; every replica, the sender included, drops what it names. A
 * replica that missed a message (its Redis link was down) drops everything when the link comes
 * back, and ACCESS_CACHE_SECONDS bounds what it could have served stale in between.
 */
const message = z.union([
  z.object({ token: z.string().min(1).max(200) }),
  z.object({ user: z.number().int() }),
  z.object({ whitelist: z.literal(true) }),
]);

export function accessCacheEvents(opts: {
  redis: Redis;
  url: string;
  prefix: string;
  identities: IdentityCache;
  whitelist: Whitelist;
  log: { warn(obj: object, msg: string): void };
}): InvalidationSubscriber {
  const channel = invalidationChannel(opts.prefix, 'access');
  const publish = (body: object) => publishInvalidation(opts.redis, channel, JSON.stringify(body), opts.log);
  opts.identities.announce = publish;
  opts.whitelist.announce = () => publish({ whitelist: true });
  return subscribeInvalidations({
    url: opts.url,
    channel,
    log: opts.log,
    onMessage(raw) {
      let parsed;
      try {
        parsed = message.safeParse(JSON.parse(raw));
      } catch {
        return;
      }
      if (!parsed.success) return;
      const m = parsed.data;
      if ('whitelist' in m) opts.whitelist.reloadSoon();
      else opts.identities.drop(m);
    },
    onResync() {
      opts.identities.clear();
      opts.whitelist.reloadSoon();
    },
  });
}

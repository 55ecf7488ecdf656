import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

/**
 * Cache invalidation across replicas over Redis pub/sub. A process that changes shared data
 * publishes a short message on a channel under the fleet's REDIS_PREFIX; every process that keeps
 * a per-process cache of that data subscribes and drops the entries the message names.
 *
 * Pub/sub is fire and forget: a replica whose link is down while a message goes out never gets it.
 * So every cache that relies on this keeps a bounded TTL as well (a missed message costs at most
 * that TTL), and the subscriber calls `onResync` after every reconnect, where the cache drops
 * everything: the link was down, so any message may have been missed.
 */
export const invalidationChannel = (prefix: string, topic: string) => `${prefix}:invalidate:${topic}`;

export interface InvalidationSubscriber {
  /** The subscriber's name in Redis CLIENT LIST (operators and tests find it by this). */
  readonly connectionName: string;
  /** Resolves once the channel is subscribed (the first time); never rejects. */
  readonly ready: Promise<void>;
  /** Whether the channel is subscribed right now. */
  readonly connected: boolean;
  close(): void;
}

export interface SubscribeOptions {
  url: string;
  channel: string;
  onMessage(message: string): void;
  /** Called after the link came back: drop everything, a message may have been missed. */
  onResync(): void;
  log?: { warn(obj: object, msg: string): void };
}

/** One dedicated connection per subscriber: a subscribed Redis connection can do nothing else. */
export function subscribeInvalidations(opts: SubscribeOptions): InvalidationSubscriber {
  const connectionName = `invalidation-${process.pid}-${randomBytes(3).toString('hex')}`;
  const sub = new Redis(opts.url, {
    maxRetriesPerRequest: null,
    connectionName,
    retryStrategy: (times) => Math.min(times * 100, 2000),
  });
  let subscribed = false;
  let closed = false;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  sub.on('error', (err: Error) =>
    opts.log?.warn({ err: err.message, channel: opts.channel }, 'invalidation channel error'),
  );
  sub.on('message', (channel: string, message: string) => {
    if (channel === opts.channel) opts.onMessage(message);
  });
  // ioredis re-subscribes on its own after a reconnect and emits 'ready' again.
  sub.on('ready', () => {
    if (subscribed) opts.onResync();
  });
  sub.subscribe(opts.channel).then(
    () => {
      subscribed = true;
      markReady();
    },
    (err: Error) => {
      if (!closed) opts.log?.warn({ err: err.message, channel: opts.channel }, 'subscribe failed');
      markReady();
    },
  );
  return {
    connectionName,
    ready,
    get connected() {
      return subscribed && sub.status === 'ready';
    },
    close() {
      closed = true;
      sub.disconnect();
    },
  };
}

/** Publishes on a connection in normal mode; a failure is logged, never thrown (TTL still bounds). */
export async function publishInvalidation(
  redis: Pick<Redis, 'publish'>,
  channel: string,
  message: string,
  log?: { warn(obj: object, msg: string): void },
): Promise<void> {
  try {
    await redis.publish(channel, message);
  } catch (err) {
    log?.warn({ err: String(err), channel }, 'could not publish a cache invalidation');
  }
}

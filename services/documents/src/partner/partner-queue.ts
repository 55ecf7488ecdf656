import { createRedis, QueueClient, type Redis } from '@aplt/queue';

/**
 * The HTTP side's way into the `partner-sync` queue: after a route confirmed an order it asks the
 * worker to sweep the tenant (the order's outbox row is committed by then); after a resend it
 * queues that order's send. The Redis connection opens on first use. A failure to enqueue is not
 * the request's failure: the scheduled sweep finds every queued row anyway.
 */
export class PartnerQueue {
  private redis: Redis | undefined;
  private client: QueueClient | undefined;

  constructor(
    private readonly redisUrl: string,
    private readonly prefix: string,
  ) {}

  private queues(): QueueClient {
    if (!this.client) {
      this.redis = createRedis(this.redisUrl);
      this.client = new QueueClient(this.redis, this.prefix);
    }
    return this.client;
  }

  async sweepTenant(tenantId: string): Promise<void> {
    await this.queues().enqueue('partner-sync', 'partner-sync.sweep', { tenantId });
  }

  async sendOrder(tenantId: string, orderId: number): Promise<void> {
    await this.queues().enqueue('partner-sync', 'partner-sync.order', { tenantId, orderId });
  }

  async close(): Promise<void> {
    await this.client?.close();
    this.redis?.disconnect();
  }
}

import type { Kysely, TenantRecord } from '@aplt/db';
import { createRedis, QueueClient, type Redis } from '@aplt/queue';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { staffAddresses } from './returns.repository';

type ReturnSummary = {
  id: number;
  return_number: string;
  invoice_number: string | null;
  remark: string | null;
  lines: Array<{
    sku: string | null;
    description: string | null;
    quantity: number;
    reason: string;
    reason_text: string | null;
  }>;
  photos: unknown[];
};

/**
 * Tells staff about a new return through the fleet's mail path: a `mail.send` job on the `mail`
 * queue, which the auth service's mail worker hands to SMTP with retries (an SMTP outage delays
 * the message, it does not lose it). The Redis connection opens on the first message.
 */
export class StaffNotifier {
  private redis: Redis | undefined;
  private queue: QueueClient | undefined;

  constructor(
    private readonly redisUrl: string,
    private readonly prefix: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  async returnFiled(
    tenant: TenantRecord,
    dbs: { aplt: Kysely<any>; commerce: Kysely<any> },
    brandId: string | null,
    customer: string,
    ret: ReturnSummary,
  ): Promise<void> {
    const email = z.string().email();
    const to = (await staffAddresses(dbs.aplt, dbs.commerce, brandId)).filter(
      (a) => email.safeParse(a).success,
    );
    if (!to.length) {
      this.log.warn(
        { tenant: tenant.id, return: ret.return_number },
        'no staff address for return notifications',
      );
      return;
    }
    const text = [
      `Return ${ret.return_number} was filed by ${customer}${ret.invoice_number ? ` for invoice ${ret.invoice_number}` : ''}.`,
      '',
      ...ret.lines.map(
        (l) =>
          `- ${l.quantity} x ${l.sku ?? ''} ${l.description ?? ''}: ${l.reason.replace(/_/g, ' ')}${l.reason_text ? ` (${l.reason_text})` : ''}`,
      ),
      '',
      ...(ret.remark ? [`Remark: ${ret.remark}`, ''] : []),
      `Photos: ${ret.photos.length}`,
    ].join('\n');
    this.queue ??= new QueueClient((this.redis = createRedis(this.redisUrl)), this.prefix);
    for (const address of to) {
      await this.queue.enqueue(
        'mail',
        'mail.send',
        { to: address, subject: `${tenant.name}: return ${ret.return_number} from ${customer}`, text },
        { removeOnComplete: true },
      );
    }
  }

  async close(): Promise<void> {
    await this.queue?.close();
    this.redis?.disconnect();
  }
}

import type { ApltDatabase, CommerceDatabase, Kysely, TenantRecord } from '@aplt/db';
import { createRedis, QueueClient, type Redis } from '@aplt/queue';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { quotationStaffAddresses } from './cart.repository';
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
    dbs: { aplt: Kysely<ApltDatabase>; commerce: Kysely<CommerceDatabase> },
    brandId: number | null,
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

  /** A cart became a quotation request (source web): staff price and send it. */
  async quotationRequested(
    tenant: TenantRecord,
    dbs: { aplt: Kysely<ApltDatabase>; commerce: Kysely<CommerceDatabase> },
    brandId: number | null,
    q: {
      quotation_number: string;
      customer_name: string | null;
      customer_company: string | null;
      customer_email: string | null;
      subtotal: string;
      lines: Array<{
        quantity: number;
        sku: string | null;
        description: string | null;
        technique_code: string | null;
        print_position: string | null;
        logo_transaction_id: string | null;
      }>;
    },
    phone: string | null,
    remark: string | null,
  ): Promise<void> {
    const email = z.string().email();
    const to = (await quotationStaffAddresses(dbs.aplt, dbs.commerce, brandId)).filter(
      (a) => email.safeParse(a).success,
    );
    if (!to.length) {
      this.log.warn(
        { tenant: tenant.id, quotation: q.quotation_number },
        'no staff address for quotation requests',
      );
      return;
    }
    const who =
      [q.customer_name, q.customer_company].filter(Boolean).join(', ') || q.customer_email || 'a visitor';
    const text = [
      `Quotation request ${q.quotation_number} from the web shop by ${who}${q.customer_email ? ` <${q.customer_email}>` : ''}.`,
      ...(phone ? [`Phone: ${phone}`] : []),
      '',
      ...q.lines.map(
        (l) =>
          `- ${l.quantity} x ${l.sku ?? ''} ${l.description ?? ''}${l.technique_code ? ` (${l.technique_code}${l.print_position ? ` at ${l.print_position}` : ''}${l.logo_transaction_id ? `, logo ${l.logo_transaction_id}` : ''})` : ''}`,
      ),
      '',
      ...(remark ? [`Remark: ${remark}`, ''] : []),
      `Subtotal excl. VAT: EUR ${q.subtotal}`,
    ].join('\n');
    await this.enqueue(to, `${tenant.name}: quotation request ${q.quotation_number} from ${who}`, text);
  }

  private async enqueue(to: string[], subject: string, text: string): Promise<void> {
    this.queue ??= new QueueClient((this.redis = createRedis(this.redisUrl)), this.prefix);
    for (const address of to) {
      await this.queue.enqueue(
        'mail',
        'mail.send',
        { to: address, subject, text },
        { removeOnComplete: true },
      );
    }
  }

  async close(): Promise<void> {
    await this.queue?.close();
    this.redis?.disconnect();
  }
}

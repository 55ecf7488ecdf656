import { createTenantApp, type TenantServiceDeps } from '@aplt/http';
import type { QueueClient } from '@aplt/queue';
import { registerChainRoutes } from './chain/chain.routes';
import type { Config } from './config';
import { registerContentRoutes } from './content/content.routes';
import { registerCustomerRoutes } from './customers/customer.routes';
import { registerInvoiceRoutes } from './invoices/invoice.routes';
import { registerOrderRoutes } from './orders/order.routes';
import { PartnerQueue } from './partner/partner-queue';
import { registerPartnerRoutes } from './partner/partner.routes';
import { registerPaymentRoutes } from './payments/payment.routes';
import { registerQuotationRoutes } from './quotations/quotation.routes';
import { registerReportRoutes } from './reports/report.routes';
import { registerParameterRoutes } from './settings/parameter.routes';
import type { DocumentsContext } from './shared/context';
import { registerCustomerPortalRoutes } from './store/customer-portal.routes';
import { registerStoreQuotationRoutes } from './store/store-quotation.routes';
import { storePlugin } from './store/store.plugin';
import { registerSubscriptionRoutes } from './subscriptions/subscription.routes';

export type Deps = Pick<TenantServiceDeps, 'registry' | 'databases' | 'licenses'> & {
  /** For the subscription billing schedulers (a tenant's setting creates or removes its own). */
  queues?: QueueClient;
};

/** Builds the documents service; never listens (server.ts does). */
export async function buildApp(deps: Deps, config: Config) {
  const app = await createTenantApp('documents', deps, config);
  const ctx: DocumentsContext = { databases: deps.databases, config, queues: deps.queues };
  // Partner fulfilment first: its hook (wake the partner worker after a confirmation) covers every route.
  const partnerQueue = new PartnerQueue(config.REDIS_URL, config.REDIS_PREFIX);
  app.addHook('onClose', async () => partnerQueue.close());
  registerPartnerRoutes(app, ctx, { queue: partnerQueue });
  registerQuotationRoutes(app, ctx);
  registerOrderRoutes(app, ctx);
  registerInvoiceRoutes(app, ctx);
  registerPaymentRoutes(app, ctx);
  registerChainRoutes(app, ctx);
  registerReportRoutes(app, ctx);
  registerCustomerRoutes(app, ctx);
  registerParameterRoutes(app, ctx);
  registerContentRoutes(app, ctx);
  registerSubscriptionRoutes(app, ctx);
  registerStoreQuotationRoutes(app, ctx);
  registerCustomerPortalRoutes(app, ctx);
  await app.register(import('./output/output.routes'), { databases: deps.databases });
  // Customer orders, invoices (PDF through the output routes' browser) and returns (issue #15).
  await app.register(storePlugin, { ctx });
  return app;
}

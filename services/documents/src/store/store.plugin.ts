import multipart from '@fastify/multipart';
import type { App } from '@aplt/http';
import type { FastifyInstance } from 'fastify';
import { loadOutputConfig, type OutputConfig } from '../output/output.config';
import type { DocumentsContext } from '../shared/context';
import { registerCartRoutes } from './cart.routes';
import { registerCustomerDocumentRoutes } from './customer-documents.routes';
import { registerAdminReturnRoutes } from './admin-returns.routes';
import { ReturnPhotoStore } from './photo-store';
import { registerReturnRoutes } from './returns.routes';
import { MAX_PHOTO_BYTES, MAX_RETURN_PHOTOS } from './returns.service';
import { StaffNotifier } from './staff-notify';
import { loadStoreConfig, type StoreConfig } from './store.config';

export interface StorePluginOptions {
  ctx: DocumentsContext;
  /** Default: the process environment, read the same way as the output routes read it. */
  output?: OutputConfig;
  store?: StoreConfig;
}

/**
 * The customer store routes of issue #15: orders, invoices with their PDF, returns with photos,
 * carts and their quotation requests; and staff's read-only view of the returns.
 * Encapsulated on purpose (no fastify-plugin): multipart parsing exists only for these routes.
 * Needs the document output routes registered first (their warm browser renders the PDFs).
 */
export async function storePlugin(parent: FastifyInstance, opts: StorePluginOptions): Promise<void> {
  const app = parent as unknown as App;
  if (!app.hasDecorator('documentOutput'))
    throw new Error('register the document output routes before the store plugin');
  const output = opts.output ?? loadOutputConfig();
  const store = opts.store ?? loadStoreConfig();
  await app.register(multipart, {
    limits: {
      fileSize: MAX_PHOTO_BYTES,
      files: MAX_RETURN_PHOTOS,
      fields: 2,
      fieldSize: 64 * 1024,
      parts: 6,
    },
  });
  const notifier = new StaffNotifier(opts.ctx.config.REDIS_URL, opts.ctx.config.REDIS_PREFIX, app.log);
  app.addHook('onClose', async () => notifier.close());
  registerCustomerDocumentRoutes(app, opts.ctx, output);
  registerCartRoutes(app, opts.ctx, { notifier });
  const photos = new ReturnPhotoStore(store.RETURN_PHOTO_DIR);
  registerReturnRoutes(app, opts.ctx, { photos, notifier });
  registerAdminReturnRoutes(app, opts.ctx, { photos });
}

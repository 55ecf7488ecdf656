import { badRequest, badStringPath, errorBody, type App, HttpError } from '@aplt/http';
import { z } from 'zod';
import type { Config } from '../config';
import {
  addToOrder,
  cancelTransaction,
  createTransaction,
  generatePdf,
  requireTransaction,
  transactionView,
  type TransactionDeps,
  uploadLogo,
} from './transaction.service';
import { masterDb } from '../catalog/catalog.service';
import { MULTIPART_OVERHEAD } from '../body-limits';

const logoConfig = z
  .object({
    logoUrl: z.string().max(2000).optional(),
    techniqueCode: z.string().max(100).optional(),
    techniqueName: z.string().max(300).optional(),
    position: z.string().max(100).optional(),
    printArea: z.string().max(40).optional(),
    colors: z.array(z.string().max(40)).max(32).optional(),
    scale: z.number().min(0.05).max(1).optional(),
    x: z.number().min(0).max(1).optional(),
    y: z.number().min(0).max(1).optional(),
  })
  .catchall(z.union([z.string().max(500), z.number(), z.boolean(), z.null()]));

const createBody = z.object({
  basketId: z.string().max(200).optional(),
  customerId: z.string().max(200).optional(),
  source: z.string().max(100).optional(),
  productSku: z.string().min(1).max(40),
  variantSku: z.string().max(40).optional(),
  selectedColor: z.string().max(200).optional(),
  techniqueCode: z.string().max(100).optional(),
  techniqueName: z.string().max(300).optional(),
  printArea: z.string().max(40).optional(),
  quantity: z.number().int().min(1).max(10_000_000).optional(),
  logoConfig: logoConfig.optional(),
  callbackUrl: z.string().max(2000).optional(),
});

const addBody = z.object({
  variantSku: z.string().max(40).optional(),
  selectedColor: z.string().max(200).optional(),
  techniqueCode: z.string().max(100).optional(),
  quantity: z.number().int().min(1).max(10_000_000).optional(),
  logoConfig: logoConfig.optional(),
});

const transactionSchema = z.object({
  transaction_id: z.string(),
  basket_id: z.string().nullable(),
  product_sku: z.string(),
  variant_sku: z.string(),
  technique_code: z.string().nullable(),
  technique_name: z.string().nullable(),
  print_area: z.string().nullable(),
  quantity: z.number(),
  callback_url: z.string().nullable(),
  callback_status: z.string(),
  status: z.string(),
  logo_config: z.record(z.string(), z.unknown()),
  files: z.object({ screenshot: z.string(), pdf: z.string(), logo: z.string() }),
});

/** The SERVICE_LOGO_ADD_TO_ORDER payload (spec 3) plus the callback's extra URLs. */
const addToOrderView = z.object({
  transactionId: z.string(),
  basketId: z.string(),
  productSku: z.string(),
  variantSku: z.string(),
  selectedVariant: z.string(),
  selectedColor: z.string(),
  quantity: z.number(),
  techniqueCode: z.string(),
  techniqueName: z.string(),
  printArea: z.string(),
  logoConfig: z.record(z.string(), z.unknown()),
  filesUrl: z.string(),
  screenshotUrl: z.string(),
  pdfUrl: z.string(),
  logoUrl: z.string(),
  modalUrl: z.string(),
  downloadZipUrl: z.string(),
  epsUrl: z.string(),
});

const idParams = z.object({ id: z.string().max(64) });
const files = z.object({ screenshot: z.string(), pdf: z.string(), logo: z.string() });
const errors = {
  400: errorBody,
  404: errorBody,
  409: errorBody,
  413: errorBody,
  415: errorBody,
  422: errorBody,
};

/** Absolute address of this service as the caller sees it (URLs in messages and callbacks). */
export const publicBaseUrl = (config: Config, request: { protocol: string; host: string }) =>
  config.MODAL_PUBLIC_URL?.replace(/\/$/, '') ?? `${request.protocol}://${request.host}`;

export function transactionRoutes(app: App, deps: TransactionDeps) {
  const limited = { rateLimit: { max: deps.config.WRITE_RATE_LIMIT_PER_MINUTE, timeWindow: 60_000 } };
  app.post(
    '/api/transactions',
    {
      config: limited,
      schema: {
        body: createBody,
        response: {
          201: z.object({
            transaction_id: z.string(),
            basket_id: z.string().nullable(),
            product_sku: z.string(),
            quantity: z.number(),
            callback_url: z.string().nullable(),
            status: z.string(),
            files,
          }),
          ...errors,
        },
      },
    },
    async (request, reply) => reply.status(201).send(await createTransaction(deps, request.body)),
  );

  app.get(
    '/api/transactions/:id',
    { schema: { params: idParams, response: { 200: transactionSchema, 404: errorBody } } },
    async (request) => transactionView(await requireTransaction(await masterDb(deps), request.params.id)),
  );

  app.post(
    '/api/transactions/:id/logo',
    {
      config: limited,
      // The file, plus room for the multipart framing around it.
      bodyLimit: deps.config.UPLOAD_MAX_BYTES + MULTIPART_OVERHEAD,
      schema: {
        params: idParams,
        response: {
          201: z.object({
            logoUrl: z.string(),
            format: z.enum(['svg', 'png', 'jpeg']),
            width: z.number(),
            height: z.number(),
            colors: z.array(z.string()),
          }),
          ...errors,
        },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) throw badRequest('Send the logo as multipart/form-data in field "file"');
      const file = await request.file();
      if (!file) throw badRequest('No file in the upload');
      // Multipart is parsed here, not by the JSON rule of @aplt/http: its strings are checked here.
      const bad =
        badStringPath(file.fieldname, 'file.fieldname') ??
        badStringPath(file.filename, 'file.filename') ??
        badStringPath(file.mimetype, 'file.mimetype') ??
        badStringPath(
          Object.fromEntries(
            Object.entries(file.fields).flatMap(([k, v]) =>
              [v].flat().map((f) => [k, f && 'value' in f ? f.value : undefined]),
            ),
          ),
          'fields',
        );
      if (bad) {
        file.file.resume();
        throw badRequest(`${bad} contains a NUL byte or an unpaired surrogate`, {
          issues: [{ path: bad, message: 'contains a NUL byte or an unpaired surrogate' }],
        });
      }
      let data: Buffer;
      try {
        data = await file.toBuffer();
      } catch (err) {
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
          throw new HttpError(
            413,
            'payload_too_large',
            `The logo is larger than ${deps.config.UPLOAD_MAX_BYTES} bytes`,
            { limit_bytes: deps.config.UPLOAD_MAX_BYTES },
          );
        throw err;
      }
      return reply.status(201).send(await uploadLogo(deps, request.params.id, data));
    },
  );

  app.post(
    '/api/transactions/:id/add-to-order',
    {
      config: limited,
      schema: { params: idParams, body: addBody.optional(), response: { 200: addToOrderView, ...errors } },
    },
    async (request) =>
      addToOrder(deps, request.params.id, request.body ?? {}, publicBaseUrl(deps.config, request)),
  );

  app.post(
    '/api/transactions/:id/generate-pdf',
    {
      config: limited,
      schema: {
        params: idParams,
        response: {
          200: z.object({
            success: z.literal(true),
            data: z.object({ filename: z.string(), url: z.string() }),
          }),
          ...errors,
        },
      },
    },
    async (request) => generatePdf(deps, request.params.id),
  );

  app.delete(
    '/api/transactions/:id',
    {
      schema: {
        params: idParams,
        response: { 200: z.object({ success: z.literal(true), message: z.string() }), 404: errorBody },
      },
    },
    async (request) => cancelTransaction(deps, request.params.id),
  );
}

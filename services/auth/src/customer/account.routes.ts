import multipart from '@fastify/multipart';
import {
  type App,
  badRequest,
  CUSTOMER_COOKIE,
  errorBody,
  HttpError,
  requireActor,
  unauthorized,
} from '@aplt/http';
import type { QueueClient } from '@aplt/queue';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AuthDeps } from '../shared/deps';
import { loginRateLimit } from '../shared/rate-limit';
import {
  deleteAccount,
  getAvatar,
  getProfile,
  LANGUAGES,
  MAX_AVATAR_BYTES,
  removeAvatar,
  setAvatar,
  updateProfile,
} from './account.service';

/** Room for the multipart framing around the one avatar file. */
const AVATAR_FORM_OVERHEAD = 64 * 1024;

const errors = {
  400: errorBody,
  401: errorBody,
  404: errorBody,
  413: errorBody,
  415: errorBody,
  422: errorBody,
  429: errorBody,
};

/** Like the rest of the customer account routes: part of every tenant, no licensed feature. */
const account = {
  feature: null,
  featureReason: 'storefront customer accounts (profile, avatar, deletion) are part of every tenant',
} as const;

const notifications = z.strictObject({
  orders: z.boolean().optional(),
  quotes: z.boolean().optional(),
  newsletter: z.boolean().optional(),
});
const name = z.string().trim().max(200).nullable();
const profilePatch = z
  .strictObject({
    first_name: name.optional(),
    last_name: name.optional(),
    phone: z
      .string()
      .trim()
      .max(40)
      .regex(/^[0-9+()./\s-]*$/, 'digits, spaces and + ( ) . / - only')
      .nullable()
      .optional(),
    company_name: name.optional(),
    preferred_language: z.enum(LANGUAGES).optional(),
    notifications: notifications.optional(),
  })
  .refine((b) => Object.keys(b).length > 0, 'nothing to change');

const profile = z.object({
  id: z.string(),
  email: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  phone: z.string().nullable(),
  company_name: z.string().nullable(),
  email_verified: z.boolean(),
  preferred_language: z.enum(LANGUAGES),
  notifications: z.object({ orders: z.boolean(), quotes: z.boolean(), newsletter: z.boolean() }),
  avatar_url: z.string().nullable(),
  created_at: z.date(),
  updated_at: z.date(),
});
const customerBody = z.object({ customer: profile });

const me = (request: FastifyRequest) => {
  if (!request.actor) throw unauthorized();
  return request.actor.actorId;
};

async function readAvatarUpload(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart()) {
    throw new HttpError(
      415,
      'unsupported_media_type',
      'Send multipart/form-data with the image in field "file"',
    );
  }
  let data: Buffer | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file' || part.fieldname !== 'file') {
        if (part.type === 'file') part.file.resume();
        throw badRequest('Send only the image, in field "file"');
      }
      if (data) {
        part.file.resume();
        throw badRequest('Send one image');
      }
      try {
        data = await part.toBuffer();
      } catch (err) {
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
          throw new HttpError(
            413,
            'payload_too_large',
            `The avatar is larger than ${MAX_AVATAR_BYTES} bytes`,
            {
              limit_bytes: MAX_AVATAR_BYTES,
            },
          );
        }
        throw err;
      }
    }
  } catch (err) {
    if (err instanceof HttpError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
      throw badRequest('Send one image');
    if (((err as { statusCode?: number }).statusCode ?? 500) < 500) throw err;
    // Only parsing happens in the loop: a body the parser could not read is the client's fault.
    throw badRequest('The multipart body could not be read');
  }
  if (!data) throw badRequest('No image in field "file"');
  return data;
}

/**
 * The signed-in customer's own account (customer JWT from the `_commerce_jwt` cookie or bearer):
 * profile with preferred language and notification settings, avatar, deletion. There is no id in
 * these paths: a customer can only ever reach its own account. Encapsulated (no fastify-plugin):
 * multipart parsing exists only for the avatar upload.
 */
export async function accountRoutes(parent: FastifyInstance, opts: { deps: AuthDeps; queue: QueueClient }) {
  const app = parent as unknown as App;
  const { deps } = opts;
  await app.register(multipart, {
    limits: { fileSize: MAX_AVATAR_BYTES, files: 1, fields: 0, parts: 2 },
  });
  const auth = { config: account, preHandler: requireActor('customer') };

  app.get(
    '/store/customers/me',
    {
      ...auth,
      schema: { tags: ['store'], summary: 'My profile', response: { ...errors, 200: customerBody } },
    },
    async (request) => ({ customer: await getProfile(deps, request.tenant, me(request)) }),
  );

  // PUT as the storefront brief names it; POST as Medusa's SDK sends it (sdk.store.customer.update).
  for (const method of ['PUT', 'POST'] as const) {
    app.route({
      method,
      url: '/store/customers/me',
      ...auth,
      schema: {
        tags: ['store'],
        summary: 'Change my profile: names, phone, company, preferred_language (nl, en, de), notifications',
        body: profilePatch,
        response: { ...errors, 200: customerBody },
      },
      handler: async (request) => ({
        customer: await updateProfile(
          deps,
          request.tenant,
          me(request),
          request.body as z.infer<typeof profilePatch>,
        ),
      }),
    });
  }

  app.put(
    '/store/customers/me/avatar',
    {
      ...auth,
      bodyLimit: MAX_AVATAR_BYTES + AVATAR_FORM_OVERHEAD,
      schema: {
        tags: ['store'],
        summary: 'Set my avatar: multipart/form-data, field "file", a JPEG or PNG of at most 2 MB',
        consumes: ['multipart/form-data'],
        response: { ...errors, 200: customerBody },
      },
    },
    async (request) => ({
      customer: await setAvatar(deps, request.tenant, me(request), await readAvatarUpload(request)),
    }),
  );

  app.get(
    '/store/customers/me/avatar',
    { ...auth, schema: { tags: ['store'], summary: 'My avatar image', response: errors } },
    async (request, reply) => {
      const avatar = await getAvatar(deps, request.tenant, me(request));
      const etag = `"${avatar.sha256}"`;
      const r = (reply as FastifyReply)
        .header('etag', etag)
        .header('cache-control', 'private, no-cache')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox");
      if (request.headers['if-none-match'] === etag) return r.status(304).send();
      // Binary body: sent as is, outside the JSON response schemas.
      return r.header('content-type', avatar.content_type).send(avatar.data);
    },
  );

  app.delete(
    '/store/customers/me/avatar',
    {
      ...auth,
      schema: { tags: ['store'], summary: 'Remove my avatar', response: { ...errors, 200: customerBody } },
    },
    async (request) => ({ customer: await removeAvatar(deps, request.tenant, me(request)) }),
  );

  app.delete(
    '/store/customers/me',
    {
      ...auth,
      config: { ...account, ...loginRateLimit(deps.config) },
      schema: {
        tags: ['store'],
        summary:
          'Delete my account: body {password}; soft delete now, personal data anonymised after the grace period, documents kept',
        body: z.strictObject({ password: z.string().min(1).max(1024) }),
        response: {
          ...errors,
          200: z.object({
            id: z.string(),
            object: z.literal('customer'),
            deleted: z.literal(true),
            anonymise_after: z.string(),
          }),
        },
      },
    },
    async (request, reply) => {
      const id = me(request);
      const { anonymiseAt } = await deleteAccount(
        deps,
        opts.queue,
        request.tenant,
        id,
        request.body.password,
      );
      void reply.clearCookie(CUSTOMER_COOKIE, { path: '/' });
      return {
        id,
        object: 'customer' as const,
        deleted: true as const,
        anonymise_after: anonymiseAt.toISOString(),
      };
    },
  );
}

import csrfProtection from '@fastify/csrf-protection';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Where the token travels: only this header (never a form field or the query string). */
const headerToken = (request: FastifyRequest) => {
  const token = request.headers['x-csrf-token'];
  return typeof token === 'string' ? token : undefined;
};

export type CsrfCheck = (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => void;

/**
 * CSRF protection of a cookie-authenticated service by `@fastify/csrf-protection`: the secret
 * lives in a SameSite=Strict, HttpOnly cookie, and every state-changing request carries a salted
 * token made from it in the x-csrf-token header, which a page of another origin can neither read
 * nor make. Returns the check as a callback hook (cheap on every request) for the service to add
 * where it wants it (behind its own filters, if any). A refusal is sent by the
 * library (FST_CSRF_*) and shaped into the stable 403 body by the shared error handler.
 */
export async function csrfGuard(app: FastifyInstance, opts: { cookie: string }): Promise<CsrfCheck> {
  await app.register(csrfProtection, {
    cookieKey: opts.cookie,
    cookieOpts: { path: '/', sameSite: 'strict', httpOnly: true },
    getToken: headerToken,
    logLevel: 'debug',
  });
  const protect = app.csrfProtection.bind(app);
  return function csrfCheck(request, reply, done) {
    if (safeMethods.has(request.method)) return done();
    protect(request, reply, done);
  };
}

/** A CSRF token for a page or a client; sets the secret cookie when the browser has none yet. */
export const issueCsrfToken = (request: FastifyRequest, reply: FastifyReply): string =>
  reply.generateCsrf({ secure: request.protocol === 'https' });

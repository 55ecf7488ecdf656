import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable } from '@aplt/db';
import { HttpError, typeForStatus } from './errors';

/** Seconds a client is told to wait when a database is unreachable: a restart takes about that. */
const UNAVAILABLE_RETRY_AFTER = 2;

/** One plugin turns every failure into the one error body; 5xx details go to the log only. */
export const errorHandlerPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((err: FastifyError, request, reply) => {
      if (err instanceof HttpError) {
        if (err.statusCode >= 500) request.log.error({ err }, err.message);
        return reply.status(err.statusCode).headers(err.headers).send(err.body());
      }
      if (hasZodFastifySchemaValidationErrors(err)) {
        const issues = err.validation.map((v) => ({
          path: [err.validationContext, ...String(v.instancePath).split('/').filter(Boolean)]
            .filter(Boolean)
            .join('.'),
          message: v.message ?? 'invalid',
        }));
        return reply.status(400).send({ type: 'invalid_data', message: 'Request validation failed', issues });
      }
      if (isResponseSerializationError(err)) {
        request.log.error({ err, issues: err.cause }, 'response did not match its schema');
        return reply.status(500).send({
          type: 'unexpected_state',
          message: 'An unexpected error occurred',
          request_id: request.id,
        });
      }
      // A database server that is down or restarting (a tenant's PostgreSQL on another host) is
      // not a bug: 503 with a stable body, so clients and the proxy retry; the rest keeps serving.
      if (err.statusCode === undefined && isDatabaseUnavailable(err)) {
        request.log.warn({ err: { message: err.message, code: err.code } }, 'database unavailable');
        return reply.status(503).header('retry-after', String(UNAVAILABLE_RETRY_AFTER)).send({
          type: 'unavailable',
          message: 'A database of this tenant is unavailable; try again shortly',
          reason: 'database_unavailable',
          retry_after: UNAVAILABLE_RETRY_AFTER,
          request_id: request.id,
        });
      }
      // @fastify/csrf-protection's refusals (missing secret cookie, wrong or missing token).
      if (err.code?.startsWith('FST_CSRF_'))
        return reply
          .status(403)
          .send({ type: 'not_allowed', message: 'Missing or wrong CSRF token', csrf: true });
      const status = err.statusCode ?? 500;
      if (status < 500) {
        if (status === 429) {
          return reply
            .status(429)
            .send({ type: 'rate_limited', message: err.message || 'Too many requests' });
        }
        return reply.status(status).send({ type: typeForStatus(status), message: err.message });
      }
      request.log.error({ err }, 'request failed');
      return reply.status(status).send({
        type: typeForStatus(status),
        message: 'An unexpected error occurred',
        request_id: request.id,
      });
    });

    app.setNotFoundHandler((request, reply) => {
      void reply.status(404).send({
        type: 'not_found',
        message: `Route ${request.method} ${request.url.split('?')[0]} not found`,
      });
    });
  },
  { name: 'aplt-error-handler' },
);

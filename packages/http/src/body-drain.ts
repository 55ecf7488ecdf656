import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from './errors';

/**
 * A body over its limit is still read (and discarded) up to this size, so that the client, and a
 * proxy streaming the body through, see the 413 instead of a connection closed under them. Beyond
 * it the connection is closed after the answer. The proxy's own limit sits below this.
 */
export const DRAIN_LIMIT = 64 * 1024 * 1024;

export const payloadTooLarge = (limit: number) =>
  new HttpError(413, 'payload_too_large', `The request body is larger than ${limit} bytes`, {
    limit_bytes: limit,
  });

/**
 * Reads what is left of a request body and throws it away. Resolves true at its end, false when
 * more than `max` bytes came or the connection went away first.
 */
export function drainRequest(raw: IncomingMessage, max: number): Promise<boolean> {
  if (raw.complete || raw.readableEnded) return Promise.resolve(true);
  if (raw.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    let seen = 0;
    const finish = (ok: boolean) => {
      raw.off('data', onData).off('end', onEnd).off('close', onClose).off('error', onClose);
      resolve(ok);
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > max) finish(false);
    };
    const onEnd = () => finish(true);
    const onClose = () => finish(raw.complete);
    raw.on('data', onData).on('end', onEnd).on('close', onClose).on('error', onClose);
    raw.resume();
  });
}

/**
 * Why: Fastify answers a body over the limit at once and closes the connection while the client
 * (or Caddy, streaming the body through) is still sending it. The unread data makes the kernel
 * reset the connection, and the proxy reported a 502 instead of the 413. So:
 * - a Content-Length over the route's `bodyLimit` is refused before anything is parsed (also for
 *   multipart, whose parser Fastify does not limit), and
 * - before any answer leaves while the request body is still arriving (a refusal, an error, an
 *   early reply), the rest of the body is read and discarded (up to DRAIN_LIMIT). A body read to
 *   its end leaves the connection usable, so the close Fastify asked for is dropped again.
 */
export const bodyDrainPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRequest', (request, _reply, done) => {
      const length = Number(request.headers['content-length']);
      const limit = request.routeOptions.bodyLimit;
      if (limit !== undefined && length > limit) return done(payloadTooLarge(limit));
      done();
    });
    app.addHook('onSend', (request, reply, payload, done) => {
      if (request.raw.complete) return done(null, payload);
      drainRequest(request.raw, DRAIN_LIMIT).then((drained) => {
        if (drained) reply.removeHeader('connection');
        else void reply.header('connection', 'close');
        done(null, payload);
      }, done);
    });
  },
  { name: 'aplt-body-drain' },
);

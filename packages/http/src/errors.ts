import { z } from 'zod';

/**
 * The fleet's one error body. `type` is a stable machine-readable word (Medusa's vocabulary, so
 * existing admin clients understand it), `message` is for people; extra fields carry details
 * such as validation `issues` or the `feature` a license guard refused.
 */
export const errorTypes = [
  'invalid_data',
  'unauthorized',
  'not_allowed',
  'not_found',
  'conflict',
  'unprocessable',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'unavailable',
  'unexpected_state',
] as const;
export type ErrorType = (typeof errorTypes)[number];

export const errorBody = z
  .object({
    type: z.enum(errorTypes),
    message: z.string(),
    issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    request_id: z.string().optional(),
  })
  .catchall(z.unknown());
export type ErrorBody = z.infer<typeof errorBody>;

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly type: ErrorType,
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }

  body(): ErrorBody {
    return { type: this.type, message: this.message, ...this.details };
  }
}

export const badRequest = (message: string, details?: Record<string, unknown>) =>
  new HttpError(400, 'invalid_data', message, details);
export const unauthorized = (message = 'Unauthorized', details?: Record<string, unknown>) =>
  new HttpError(401, 'unauthorized', message, details);
export const forbidden = (message = 'Forbidden', details?: Record<string, unknown>) =>
  new HttpError(403, 'not_allowed', message, details);
export const notFound = (message = 'Not found', details?: Record<string, unknown>) =>
  new HttpError(404, 'not_found', message, details);
export const conflict = (message: string, details?: Record<string, unknown>) =>
  new HttpError(409, 'conflict', message, details);
export const unprocessable = (message: string, details?: Record<string, unknown>) =>
  new HttpError(422, 'unprocessable', message, details);
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new HttpError(
    429,
    'rate_limited',
    message,
    { retry_after: retryAfterSeconds },
    { 'retry-after': String(retryAfterSeconds) },
  );

/** Fastify's own 4xx codes (body too large, bad JSON, ...) mapped into the same vocabulary. */
export function typeForStatus(status: number): ErrorType {
  switch (status) {
    case 401:
      return 'unauthorized';
    case 403:
      return 'not_allowed';
    case 404:
      return 'not_found';
    case 409:
      return 'conflict';
    case 413:
      return 'payload_too_large';
    case 415:
      return 'unsupported_media_type';
    case 422:
      return 'unprocessable';
    case 429:
      return 'rate_limited';
    case 503:
      return 'unavailable';
    default:
      return status >= 500 ? 'unexpected_state' : 'invalid_data';
  }
}

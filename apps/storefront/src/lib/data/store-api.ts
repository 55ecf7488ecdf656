import { FetchError } from '@medusajs/js-sdk';
import { proxyUrl, storeSdk } from '../sdk';
import { shopRequest } from '../tenant';
import { customerToken } from './customer-session';

/**
 * A refused or failed store API call. `status` 0: the API could not be reached at all. The
 * message is the API's own (English) text, for the log; pages show `accountError(lang, err)`.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly reason?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof FetchError) return new ApiError(err.status ?? 0, err.message);
  return new ApiError(0, err instanceof Error ? err.message : String(err));
}

type Query = Record<string, string | number | undefined>;

/** The customer's bearer header; without a session the call is refused before it is sent. */
async function authHeader(token?: string): Promise<Record<string, string>> {
  const jwt = token ?? (await customerToken());
  if (!jwt) throw new ApiError(401, 'Not signed in');
  return { authorization: `Bearer ${jwt}` };
}

/**
 * A JSON call of the store API through the Medusa JS SDK, as the signed-in customer
 * (`auth: true`, the default) or anonymously (`auth: false`, the sign-in and sign-up steps).
 */
export async function storeJson<T>(
  path: string,
  init: {
    method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
    body?: object;
    query?: Query;
    auth?: boolean;
    token?: string;
  } = {},
): Promise<T> {
  const headers = init.auth === false ? {} : await authHeader(init.token);
  const query = init.query
    ? Object.fromEntries(Object.entries(init.query).filter(([, v]) => v !== undefined && v !== ''))
    : undefined;
  try {
    const sdk = await storeSdk();
    return await sdk.client.fetch<T>(path, {
      method: init.method ?? 'GET',
      headers,
      cache: 'no-store',
      // The SDK always says JSON; a POST without a body would be refused as an empty JSON body.
      ...(init.body ? { body: init.body } : init.method && init.method !== 'GET' ? { body: {} } : {}),
      ...(query ? { query } : {}),
    });
  } catch (err) {
    throw toApiError(err);
  }
}

/**
 * A raw call as the signed-in customer, for what the SDK's JSON client does not carry: multipart
 * uploads and binary answers (PDF, images). A non-2xx answer becomes an ApiError.
 */
export async function storeRaw(
  path: string,
  init: { method?: string; body?: FormData } = {},
): Promise<Response> {
  const headers = await authHeader();
  const { apiHost } = await shopRequest();
  let res: Response;
  try {
    res = await fetch(`${proxyUrl(apiHost)}${path}`, {
      method: init.method ?? 'GET',
      headers,
      cache: 'no-store',
      ...(init.body ? { body: init.body } : {}),
    });
  } catch (err) {
    throw toApiError(err);
  }
  if (!res.ok) {
    const body = (await res.json().catch(() => ({}))) as { message?: string; reason?: string };
    throw new ApiError(res.status, body.message ?? res.statusText, body.reason);
  }
  return res;
}

/** Whether an error means the session is gone (expired, revoked, account deleted). */
export const isSignedOut = (err: unknown) => err instanceof ApiError && err.status === 401;

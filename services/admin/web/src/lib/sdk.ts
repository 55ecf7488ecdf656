import { Auth, Client, type Config } from '@medusajs/js-sdk';

/** localStorage key the SDK keeps the admin JWT under (Medusa's default). */
export const TOKEN_STORAGE_KEY = 'medusa_auth_token';

const config: Config = {
  // Same origin: the tenant host the panel was loaded from, through the proxy.
  baseUrl: window.location.origin,
  auth: { type: 'jwt', jwtTokenStorageMethod: 'local', jwtTokenStorageKey: TOKEN_STORAGE_KEY },
};

const client = new Client(config);

/**
 * The panel's one API client, Medusa's JS SDK: `sdk.auth.*` for sign-in and passwords,
 * `sdk.client.fetch(path, {method, query, body})` for every other route (ours are custom
 * routes), `sdk.client.fetchStream` for server-sent events. Built from the SDK's Client and Auth
 * classes rather than `new Medusa()`: its `admin`/`store` resource classes wrap Medusa core
 * routes these backends do not serve, and would only add weight to the first load.
 */
export const sdk = { client, auth: new Auth(client, config) };

export const hasToken = (): boolean => {
  try {
    return Boolean(window.localStorage.getItem(TOKEN_STORAGE_KEY));
  } catch {
    return false;
  }
};

import { lookup as dnsLookup } from 'node:dns';
import Medusa from '@medusajs/js-sdk';
import { Agent, setGlobalDispatcher } from 'undici';
import { runtimeEnv } from './env';
import { shopRequest } from './tenant';

/**
 * Node's fetch drops a custom Host header, and the proxy routes by host. So the storefront asks
 * for `http://<tenant>.<domain>:<proxy port>/...` and this dispatcher connects every host of the
 * proxy domain to the proxy's own address: the URL keeps the tenant's host name (the Host header
 * the proxy sees) while the socket goes to STORE_API_URL.
 */
let installed = false;
function installDispatcher(): void {
  if (installed) return;
  installed = true;
  const target = new URL(runtimeEnv.storeApiUrl()).hostname;
  const suffix = `.${runtimeEnv.proxyDomain()}`;
  setGlobalDispatcher(
    new Agent({
      connect: {
        // Every other name (the gatekeeper service, a proxy given by name as in compose) is
        // resolved as usual; an address resolves to itself without a query.
        lookup: (hostname, options, callback) =>
          dnsLookup(hostname.endsWith(suffix) ? target : hostname, options, callback),
      },
    }),
  );
}

/** Base URL of a host of the proxy domain, on the proxy's port. */
export function proxyUrl(host: string): string {
  installDispatcher();
  const proxy = new URL(runtimeEnv.storeApiUrl());
  return `${proxy.protocol}//${host}${proxy.port ? `:${proxy.port}` : ''}`;
}

/** The store API of this request's tenant, through the proxy, with the Medusa JS SDK. */
export async function storeSdk(): Promise<Medusa> {
  const { apiHost } = await shopRequest();
  return sdkFor(apiHost);
}

/** The store API on a tenant's backend host (`acme.localhost`). */
export function sdkFor(apiHost: string): Medusa {
  return new Medusa({ baseUrl: proxyUrl(apiHost), auth: { type: 'jwt', jwtTokenStorageMethod: 'nostore' } });
}

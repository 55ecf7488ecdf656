import { request } from 'undici';
import { runtimeEnv } from '../env';
import { type ShopRequest, shopRequest, shopRequestFrom } from '../tenant';

export type AccessStatus = 'approved' | 'pending' | 'rejected' | 'none';
export interface AccessCheck {
  has_access: boolean;
  status: AccessStatus;
  message: string;
}

/**
 * The gatekeeper decides on the visitor's address, and that address exists only on the request
 * the proxy sent to the storefront: a call from here through the proxy would carry the
 * storefront's own address. So the storefront relays the visitor's request to the gatekeeper
 * service directly, as a proxy would: the shop host, the access service's assertion the proxy
 * attached for it (60 s, bound to that host), and the visitor's address in X-Forwarded-For, which
 * the gatekeeper believes only from a peer in its TRUSTED_PROXIES.
 */
async function relay(
  path: string,
  init: { method: 'GET' | 'POST'; body?: unknown },
  req: ShopRequest,
): Promise<{ status: number; json: () => Promise<unknown> }> {
  if (!req.assertion)
    throw new Error('no access assertion on this request: is the storefront behind the proxy?');
  // undici's request() sends the Host header it is given (fetch would drop it).
  const res = await request(`${runtimeEnv.gatekeeperUrl()}${path}`, {
    method: init.method,
    headers: {
      host: req.shopHost,
      'x-access-assertion': req.assertion,
      ...(req.visitorIp ? { 'x-forwarded-for': req.visitorIp } : {}),
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.body === undefined ? null : JSON.stringify(init.body),
  });
  return { status: res.statusCode, json: () => res.body.json() };
}

/**
 * Positive answers per shop host and visitor address, for STOREFRONT_ACCESS_CACHE_SECONDS
 * (default 5): every shop page asks, and a visitor browsing asks again within a second. Never a
 * refusal or a pending state, so an approval opens the shop at once; a withdrawn approval closes it
 * within those seconds. Only for a request that carries the proxy's assertion, as the relay needs.
 *
 * The map lives in a `globalThis` registry because the page cache in front of Next (server.mjs,
 * plain Node in the same process) serves a cached page only to a visitor this map admits now,
 * and asks check() before it lets any other visitor's shop request reach Next (src/instrumentation.ts
 * loads this module at start-up, so the registry is there before the first request). One map, one
 * check.
 */
interface ApprovalRegistry {
  admitted: Map<string, { answer: AccessCheck; expires: number }>;
  /** Checks under way per visitor: a burst of one visitor's requests asks the gatekeeper once. */
  asking: Map<string, Promise<AccessCheck>>;
  /** Whether the visitor of a request with these headers holds a live approval here. */
  admits(header: (name: string) => string | null | undefined): boolean;
  /** checkAccess() for a request with these headers (outside Next's request scope). */
  check(header: (name: string) => string | null | undefined): Promise<AccessCheck>;
}
const REGISTRY = Symbol.for('aplt.storefront.gatekeeper-approvals');
const registry = ((globalThis as Record<symbol, unknown>)[REGISTRY] ??= {
  admitted: new Map(),
  asking: new Map(),
  admits(header) {
    const key = admittedKey(shopRequestFrom(header));
    const hit = key ? this.admitted.get(key) : undefined;
    return hit !== undefined && hit.expires > Date.now() && hit.answer.has_access;
  },
  check: (header) => checkAccessFor(shopRequestFrom(header)),
} satisfies ApprovalRegistry) as ApprovalRegistry;
const admitted = registry.admitted;

function admittedKey(req: ShopRequest): string | undefined {
  return req.visitorIp && req.assertion && runtimeEnv.accessCacheSeconds() > 0
    ? `${req.shopHost} ${req.visitorIp}`
    : undefined;
}

export async function checkAccess(): Promise<AccessCheck> {
  return checkAccessFor(await shopRequest());
}

async function checkAccessFor(req: ShopRequest): Promise<AccessCheck> {
  const ttl = runtimeEnv.accessCacheSeconds() * 1000;
  const key = admittedKey(req);
  const now = Date.now();
  const hit = key ? admitted.get(key) : undefined;
  if (hit && hit.expires > now) return hit.answer;
  if (!key) return askGatekeeper(req, key, now + ttl);
  const running = registry.asking.get(key);
  if (running) return running;
  const asked = askGatekeeper(req, key, now + ttl).finally(() => registry.asking.delete(key));
  registry.asking.set(key, asked);
  return asked;
}

async function askGatekeeper(
  req: ShopRequest,
  key: string | undefined,
  expires: number,
): Promise<AccessCheck> {
  const res = await relay('/store/access-check', { method: 'GET' }, req);
  const body = (await res.json()) as AccessCheck;
  if (res.status !== 200) throw new Error(`access-check answered ${res.status}: ${JSON.stringify(body)}`);
  if (key) {
    if (body.has_access) {
      if (admitted.size >= 10_000) admitted.clear();
      admitted.set(key, { answer: body, expires });
    } else admitted.delete(key);
  }
  return body;
}

export interface AccessRequestInput {
  name: string;
  company: string;
  email: string;
  message: string;
}

export async function requestAccess(
  input: AccessRequestInput,
): Promise<{ ok: true } | { ok: false; status: number; message: string }> {
  const res = await relay('/store/access-request', { method: 'POST', body: input }, await shopRequest());
  const body = (await res.json().catch(() => ({}))) as { message?: string };
  if (res.status === 201 || res.status === 200) return { ok: true };
  return { ok: false, status: res.status, message: body.message ?? `HTTP ${res.status}` };
}

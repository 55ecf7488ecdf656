import { cookies } from 'next/headers';
import { runtimeEnv } from '../env';
import { proxyUrl } from '../sdk';
import { shopRequest } from '../tenant';
import { customerToken } from './customer-session';

/**
 * The cart, in the shape of Medusa's starter (`src/lib/data/cart.ts`): the cart id lives in an
 * httpOnly cookie, every call goes to the tenant's store API (`/store/carts`) on the server, and
 * the customer's JWT goes along when there is one (a customer's cart answers only to it).
 * Cookies can be written only from server actions and route handlers: the functions that may
 * create or replace the cart (`getOrCreateCart`, `transferCartToCustomer`, ...) are called from
 * those; pages only read (`retrieveCart`).
 */
export const CART_COOKIE = '_commerce_cart_id';
const CART_ID = /^cart_[0-9a-f-]{36}$/;

export interface CartConfiguration {
  transaction_id: string;
  technique: string;
  technique_name: string | null;
  position: string | null;
  position_name: string | null;
  colors: string[];
  proof_url: string | null;
  screenshot_url: string | null;
}

export interface CartItem {
  id: string;
  sku: string;
  product_sku: string;
  variant_sku: string | null;
  title: string;
  color: string | null;
  thumbnail: string | null;
  quantity: number;
  /** Null when the catalog can no longer price the line (price_error says why). */
  unit_price: string | null;
  print_unit_price: string | null;
  setup_cost_total: string | null;
  subtotal: string | null;
  price_error: string | null;
  configuration: CartConfiguration | null;
}

export interface Cart {
  id: string;
  status: 'open' | 'completed';
  customer: boolean;
  currency_code: 'eur';
  items: CartItem[];
  item_count: number;
  item_subtotal: string;
  setup_cost_total: string;
  subtotal: string;
  quotation: { id: number; quotation_number: string } | null;
  created_at: string;
  updated_at: string;
}

export interface ApiError {
  status: number;
  type?: string;
  message: string;
  quotation?: { id: number; quotation_number: string };
}

async function cartCookie(): Promise<string | undefined> {
  const id = (await cookies()).get(CART_COOKIE)?.value;
  return id && CART_ID.test(id) ? id : undefined;
}

async function setCartCookie(id: string): Promise<void> {
  (await cookies()).set(CART_COOKIE, id, {
    httpOnly: true,
    sameSite: 'strict',
    path: '/',
    maxAge: 60 * 60 * 24 * 30,
    secure: process.env.NODE_ENV === 'production' && process.env.CART_COOKIE_INSECURE !== 'true',
  });
}

export async function removeCartCookie(): Promise<void> {
  (await cookies()).delete(CART_COOKIE);
}

async function authHeaders(token?: string): Promise<Record<string, string>> {
  const jwt = token ?? (await customerToken());
  return jwt ? { authorization: `Bearer ${jwt}` } : {};
}

/**
 * One store API call through the proxy on the tenant's host. Plain fetch rather than the SDK's
 * client: a 409 of the quotation request carries the quotation it already became, which the
 * SDK's error drops. A 4xx comes back as an ApiError (the fleet's `{type, message, ...}` body).
 */
async function call<T>(
  path: string,
  init: { method?: string; body?: unknown; token?: string } = {},
): Promise<{ ok: true; data: T } | { ok: false; error: ApiError }> {
  const { apiHost } = await shopRequest();
  const send = async (auth: Record<string, string>) =>
    fetch(`${proxyUrl(apiHost)}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        accept: 'application/json',
        ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...auth,
      },
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
      cache: 'no-store',
    });
  const auth = await authHeaders(init.token);
  let res = await send(auth);
  // A dead session cookie (expired, account gone) is no customer: carry on as a guest.
  if (res.status === 401 && init.token === undefined && auth.authorization) res = await send({});
  const text = await res.text();
  const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  if (res.ok) return { ok: true, data: body as T };
  if (res.status >= 500) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status}`);
  return {
    ok: false,
    error: {
      status: res.status,
      message: typeof body.message === 'string' ? body.message : `Request failed (${res.status})`,
      ...(typeof body.type === 'string' ? { type: body.type } : {}),
      ...(body.quotation ? { quotation: body.quotation as ApiError['quotation'] } : {}),
    },
  };
}

/** The visitor's cart from the cookie, or null (none yet, gone, or not this visitor's). */
export async function retrieveCart(lang: 'nl' | 'en' | 'de' = 'nl'): Promise<Cart | null> {
  const cartId = await cartCookie();
  if (!cartId) return null;
  const res = await call<{ cart: Cart }>(`/store/carts/${cartId}?lang=${lang}`);
  return res.ok ? res.data.cart : null;
}

/** The open cart of the cookie, else a new one (set in the cookie). Server actions only. */
export async function getOrCreateCart(): Promise<Cart> {
  const existing = await retrieveCart();
  if (existing && existing.status === 'open') return existing;
  const res = await call<{ cart: Cart }>('/store/carts', { method: 'POST', body: {} });
  if (!res.ok) throw new Error(res.error.message);
  await setCartCookie(res.data.cart.id);
  return res.data.cart;
}

export interface NewLine {
  sku: string;
  quantity: number;
  variant_sku?: string;
  configuration?: {
    transaction_id: string;
    technique: string;
    position?: string;
    colors?: string[];
    proof_url?: string;
    screenshot_url?: string;
  };
}

export async function addLine(line: NewLine): Promise<{ cart: Cart } | { error: ApiError }> {
  const cart = await getOrCreateCart();
  const { variant_sku, ...rest } = line;
  const res = await call<{ cart: Cart }>(`/store/carts/${cart.id}/line-items`, {
    method: 'POST',
    body: { ...rest, ...(variant_sku ? { variant_id: variant_sku } : {}) },
  });
  return res.ok ? res.data : { error: res.error };
}

export async function updateLine(lineId: string, quantity: number) {
  const id = await cartCookie();
  if (!id) return { error: { status: 404, message: 'No cart' } as ApiError };
  const res = await call<{ cart: Cart }>(`/store/carts/${id}/line-items/${encodeURIComponent(lineId)}`, {
    method: 'POST',
    body: { quantity },
  });
  return res.ok ? res.data : { error: res.error };
}

export async function deleteLine(lineId: string) {
  const id = await cartCookie();
  if (!id) return { error: { status: 404, message: 'No cart' } as ApiError };
  const res = await call<{ cart: Cart }>(`/store/carts/${id}/line-items/${encodeURIComponent(lineId)}`, {
    method: 'DELETE',
  });
  return res.ok ? res.data : { error: res.error };
}

export interface QuoteRequest {
  name?: string;
  email?: string;
  company?: string;
  phone?: string;
  remark?: string;
  lang?: 'nl' | 'en' | 'de';
}

export interface QuoteResult {
  quotation: { id: number; quotation_number: string };
}

/** Turns the cookie's cart into a quotation request; a second request answers the same quotation. */
export async function requestQuote(body: QuoteRequest): Promise<QuoteResult | { error: ApiError }> {
  const id = await cartCookie();
  if (!id) return { error: { status: 404, message: 'No cart' } };
  const res = await call<QuoteResult>(`/store/carts/${id}/quote-request`, { method: 'POST', body });
  if (res.ok || (res.error.status === 409 && res.error.quotation)) await removeCartCookie();
  return res.ok ? res.data : { error: res.error };
}

/**
 * Carries the guest cart over to the customer who just signed in (spec 1: "an anonymous cart is
 * transferred at login"): the API gives the cart to the customer, or merges its lines into the
 * customer's open cart, and answers the resulting cart, whose id replaces the cookie. Without a
 * guest cart the customer's open cart (if any) becomes the cookie's. Never throws: a sign-in
 * must not fail because of the cart.
 */
export async function transferCartToCustomer(token: string): Promise<void> {
  try {
    const id = await cartCookie();
    if (id) {
      const res = await call<{ cart: Cart }>(`/store/carts/${id}/customer`, {
        method: 'POST',
        body: {},
        token,
      });
      if (res.ok) {
        await setCartCookie(res.data.cart.id);
        return;
      }
      if (res.error.status === 404 || res.error.status === 409) await removeCartCookie();
    }
    const mine = await call<{ cart: Cart | null }>('/store/carts/mine', { token });
    if (mine.ok && mine.data.cart) await setCartCookie(mine.data.cart.id);
  } catch {
    // The cart stays as it was; the customer can still shop.
  }
}

export interface Preflight {
  available: boolean;
  techniques: Array<{ code: string; name: string; print_area: string; position: string }>;
}

/**
 * Spec 3's preflight (`GET /api/config-check/{sku}` on the modal host): the customize button
 * shows only when the product has an SVG template and print coordinates. Unavailable on error.
 */
export async function logoPreflight(sku: string): Promise<Preflight> {
  if (!/^\d{3}-\d{2}(\.\d{3})?$/.test(sku)) return { available: false, techniques: [] };
  try {
    const res = await fetch(`${proxyUrl(`modal.${runtimeEnv.proxyDomain()}`)}/api/config-check/${sku}`, {
      headers: { accept: 'application/json' },
      cache: 'no-store',
      signal: AbortSignal.timeout(3000),
    });
    if (!res.ok) return { available: false, techniques: [] };
    const body = (await res.json()) as Preflight;
    return { available: body.available === true, techniques: body.techniques ?? [] };
  } catch {
    return { available: false, techniques: [] };
  }
}

export interface SignedInCustomer {
  email: string;
  first_name: string | null;
  last_name: string | null;
  company_name: string | null;
}

/** The signed-in customer's profile (to prefill the quotation request), or null for a guest. */
export async function signedInCustomer(): Promise<SignedInCustomer | null> {
  if (!(await customerToken())) return null;
  const res = await call<{ customer: SignedInCustomer }>('/store/customers/me');
  return res.ok ? res.data.customer : null;
}

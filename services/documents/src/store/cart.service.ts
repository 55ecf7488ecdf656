import type { ApltDatabase, CommerceDatabase, Kysely, Transaction } from '@aplt/db';
import { badRequest, conflict, HttpError, notFound, unprocessable } from '@aplt/http';
import type { Config } from '../config';
import { type ShopProfile, shopCustomerFor } from '../customers/customer.service';
import { proposePrice } from '../quotations/price-proposal.service';
import { createQuotationBody } from '../quotations/quotation.schemas';
import { createQuotation } from '../quotations/quotation.service';
import { recordAudit } from '../shared/audit.service';
import { money, sum } from '../shared/money';
import * as repo from './cart.repository';
import { type AddLineInput, MAX_CART_LINES, MAX_LINE_QUANTITY, type QuoteRequestInput } from './cart.schemas';
import type { Caller } from './customer-portal.service';

/**
 * Carts of the storefront (issue #15). Rules:
 * - A guest cart (no owner) answers to anyone who knows its unguessable id; a customer's cart
 *   only to that customer's token. Anything else is 404, exactly like a missing cart.
 * - Only an open cart changes; a completed or merged one answers 409.
 * - Every write locks the cart row first, so writes of one cart run one after the other:
 *   concurrent line adds all land, and two quotation requests make one quotation.
 * - Prices are never stored: every read prices each line with the service's own price proposal
 *   (the catalog's tier at the line's quantity, the technique's scale and setup costs), the same
 *   code that prices the quotation the cart becomes.
 */

export type Lang = 'nl' | 'en' | 'de';

/** The signed-in customer: the token's commerce customer and what it links to. */
export interface Shopper {
  ref: string;
  caller: Caller;
}

export interface RequestMeta {
  ip: string;
  requestId: string;
  userAgent: string | null;
}

const PG_UNIQUE = '23505';
const isUniqueViolation = (err: unknown) => (err as { code?: string } | null)?.code === PG_UNIQUE;

/** Whether `who` may see this cart: the owner rule (a guest cart is reachable by its id alone). */
function reachable(cart: repo.CartRow | undefined, who: Shopper | null): cart is repo.CartRow {
  if (!cart) return false;
  return cart.customer_ref === null || cart.customer_ref === who?.ref;
}

function notFoundCart(id: string) {
  return notFound(`Cart ${id} not found`);
}

function mustBeOpen(cart: repo.CartRow): void {
  if (cart.status === 'completed')
    throw conflict('The cart was turned into a quotation request and can no longer change', {
      cart_id: cart.id,
      quotation_id: cart.quotation_id,
    });
  if (cart.status === 'merged')
    throw conflict('The cart was merged into the customer’s cart', {
      cart_id: cart.id,
      merged_into: cart.merged_into,
    });
}

// ---- Pricing and the view --------------------------------------------------------------------

interface PricedLine {
  line: repo.CartLineRow;
  price: Awaited<ReturnType<typeof proposePrice>> | null;
  error: string | null;
}

function priceInput(
  l: Pick<repo.CartLineRow, 'sku' | 'quantity' | 'technique_code' | 'print_position' | 'print_colours'>,
) {
  return {
    sku: l.sku,
    quantity: l.quantity,
    ...(l.technique_code !== null ? { technique_code: l.technique_code } : {}),
    ...(l.print_position !== null ? { print_position: l.print_position } : {}),
    ...(l.technique_code !== null ? { print_colours: l.print_colours ?? 1 } : {}),
  };
}

async function priceLines(
  db: Kysely<ApltDatabase>,
  config: Config,
  lines: repo.CartLineRow[],
): Promise<PricedLine[]> {
  const out: PricedLine[] = [];
  // Lines that differ only by their logo (the same product, quantity and print) price alike:
  // each distinct price is asked once per view.
  const prices = new Map<string, ReturnType<typeof proposePrice>>();
  for (const line of lines) {
    const input = priceInput(line);
    const key = JSON.stringify(input);
    let price = prices.get(key);
    if (!price) {
      price = proposePrice(db, config, input);
      price.catch(() => {}); // awaited below; a 422 is this line's answer
      prices.set(key, price);
    }
    try {
      out.push({ line, price: await price, error: null });
    } catch (err) {
      // A product that left the catalog (or a technique no longer offered) shows, but cannot be quoted.
      if (err instanceof HttpError && err.statusCode === 422)
        out.push({ line, price: null, error: err.message });
      else throw err;
    }
  }
  return out;
}

async function cartView(db: Kysely<ApltDatabase>, config: Config, cart: repo.CartRow, lang: Lang) {
  const lines = await repo.linesOf(db, cart.id);
  const priced = await priceLines(db, config, lines);
  const facts = await repo.productFacts(
    db,
    [...new Set(lines.map((l) => l.product_id))],
    [...new Set(lines.flatMap((l) => (l.variant_id === null ? [] : [l.variant_id])))],
    lang,
  );
  const quotation = cart.quotation_id === null ? null : await repo.quotationRef(db, cart.quotation_id);
  const items = priced.map(({ line, price, error }) => {
    const product = facts.products.get(line.product_id);
    const variant = line.variant_id === null ? undefined : facts.variants.get(line.variant_id);
    return {
      id: line.id,
      sku: line.sku,
      product_sku: product?.sku ?? line.sku,
      variant_sku: variant?.sku ?? null,
      title: product?.name ?? line.sku,
      color: variant?.color_name ?? null,
      thumbnail: variant?.image_url ?? product?.image_url ?? null,
      quantity: line.quantity,
      unit_price: price?.unit_price ?? null,
      print_unit_price: price?.print_unit_price ?? null,
      setup_cost_total: price?.setup_cost_total ?? null,
      subtotal: price?.line_total ?? null,
      price_error: error,
      configuration:
        line.logo_transaction_id === null
          ? null
          : {
              transaction_id: line.logo_transaction_id,
              technique: line.technique_code!,
              technique_name: price?.technique?.name ?? null,
              position: line.print_position,
              position_name: price?.print_position?.name ?? null,
              colors: line.logo_colors,
              proof_url: line.proof_url,
              screenshot_url: line.screenshot_url,
            },
      created_at: line.created_at,
    };
  });
  const itemSubtotal = sum(priced.map((p) => p.price?.line_total ?? 0));
  const setupTotal = sum(priced.map((p) => p.price?.setup_cost_total ?? 0));
  return {
    id: cart.id,
    status: cart.status,
    customer: cart.customer_ref !== null,
    currency_code: 'eur' as const,
    items,
    item_count: items.length,
    /** Lines excl. VAT and setup. */
    item_subtotal: money(itemSubtotal),
    setup_cost_total: money(setupTotal),
    /** Lines and setup costs, excl. VAT; shipping is decided in the quotation (franco rule). */
    subtotal: money(itemSubtotal.plus(setupTotal)),
    quotation: quotation ? { id: Number(quotation.id), quotation_number: quotation.quotation_number } : null,
    merged_into: cart.merged_into,
    created_at: cart.created_at,
    updated_at: cart.updated_at,
  };
}
export type CartView = Awaited<ReturnType<typeof cartView>>;

// ---- Reads and creation --------------------------------------------------------------------

export async function getCart(
  db: Kysely<ApltDatabase>,
  config: Config,
  who: Shopper | null,
  id: string,
  lang: Lang,
) {
  const cart = await repo.findCart(db, id);
  if (!reachable(cart, who)) throw notFoundCart(id);
  return cartView(db, config, cart, lang);
}

/** The signed-in customer's open cart, or null. */
export async function myOpenCart(db: Kysely<ApltDatabase>, config: Config, who: Shopper, lang: Lang) {
  const cart = await repo.findOpenCartOf(db, who.ref);
  return cart ? cartView(db, config, cart, lang) : null;
}

/**
 * A new guest cart; for a signed-in customer their open cart when they have one (one open cart
 * per customer), else a new cart of theirs. `created` tells the route 201 from 200.
 */
export async function createCart(db: Kysely<ApltDatabase>, config: Config, who: Shopper | null, lang: Lang) {
  if (who) {
    const existing = await repo.findOpenCartOf(db, who.ref);
    if (existing) return { created: false, cart: await cartView(db, config, existing, lang) };
    try {
      const cart = await repo.insertCart(db, who.ref);
      return { created: true, cart: await cartView(db, config, cart, lang) };
    } catch (err) {
      // A concurrent request made the customer's cart first: that one is the answer.
      if (!isUniqueViolation(err)) throw err;
      const again = await repo.findOpenCartOf(db, who.ref);
      if (!again) throw err;
      return { created: false, cart: await cartView(db, config, again, lang) };
    }
  }
  return { created: true, cart: await cartView(db, config, await repo.insertCart(db, null), lang) };
}

// ---- Line writes ---------------------------------------------------------------------------

/** Runs `fn` on the locked, reachable, open cart; then answers the cart as it is afterwards. */
async function writeCart(
  db: Kysely<ApltDatabase>,
  config: Config,
  who: Shopper | null,
  id: string,
  lang: Lang,
  fn: (trx: Transaction<ApltDatabase>, cart: repo.CartRow) => Promise<void>,
) {
  await db.transaction().execute(async (trx) => {
    const cart = await repo.lockCart(trx, id);
    if (!reachable(cart, who)) throw notFoundCart(id);
    mustBeOpen(cart);
    await fn(trx, cart);
    await repo.touchCart(trx, id);
  });
  return getCart(db, config, who, id, lang);
}

export async function addLine(
  db: Kysely<ApltDatabase>,
  config: Config,
  who: Shopper | null,
  id: string,
  input: AddLineInput,
  lang: Lang,
) {
  // The SKU to order: the chosen variant when given (it must be a variant of `sku`'s product).
  const orderSku = input.variant_id ?? input.sku;
  const hit = await repo.findSku(db, orderSku);
  if (!hit || !hit.is_sellable)
    throw unprocessable(`${orderSku} is not a product of this shop`, { field: 'sku' });
  if (input.variant_id !== undefined) {
    const base = await repo.findSku(db, input.sku);
    if (!base || String(base.product_id) !== String(hit.product_id))
      throw unprocessable(`${input.variant_id} is not a variant of ${input.sku}`, { field: 'variant_id' });
  }
  const c = input.configuration;
  const line: repo.NewCartLine = {
    product_id: Number(hit.product_id),
    variant_id: hit.variant_id === null ? null : Number(hit.variant_id),
    sku: orderSku,
    quantity: input.quantity,
    logo_transaction_id: c?.transaction_id ?? null,
    technique_code: c?.technique ?? null,
    print_position: c?.position ?? null,
    print_colours: c ? Math.max(1, c.colors?.length ?? 1) : null,
    logo_colors: c?.colors ?? [],
    proof_url: c?.proof_url ?? null,
    screenshot_url: c?.screenshot_url ?? null,
  };
  // The catalog must be able to price it (product, technique offered at that position, colours).
  await proposePrice(db, config, priceInput(line));

  return writeCart(db, config, who, id, lang, async (trx, cart) => {
    const lines = await repo.linesOf(trx, cart.id);
    // The same plain product again, or the same logo transaction again, is the same line.
    const same = lines.find((l) =>
      c ? l.logo_transaction_id === c.transaction_id : l.logo_transaction_id === null && l.sku === orderSku,
    );
    if (same) {
      const quantity = c ? input.quantity : same.quantity + input.quantity;
      if (quantity > MAX_LINE_QUANTITY)
        throw unprocessable(`A line holds at most ${MAX_LINE_QUANTITY} pieces`, { field: 'quantity' });
      await repo.setLineQuantity(trx, same.id, quantity);
      return;
    }
    if (lines.length >= MAX_CART_LINES)
      throw unprocessable(`A cart holds at most ${MAX_CART_LINES} lines`, { max_lines: MAX_CART_LINES });
    await repo.insertLine(trx, cart.id, line);
  });
}

export async function updateLine(
  db: Kysely<ApltDatabase>,
  config: Config,
  who: Shopper | null,
  id: string,
  lineId: string,
  quantity: number,
  lang: Lang,
) {
  return writeCart(db, config, who, id, lang, async (trx, cart) => {
    const line = await repo.findLine(trx, cart.id, lineId);
    if (!line) throw notFound(`Line ${lineId} not found`);
    await repo.setLineQuantity(trx, lineId, quantity);
  });
}

export async function removeLine(
  db: Kysely<ApltDatabase>,
  config: Config,
  who: Shopper | null,
  id: string,
  lineId: string,
  lang: Lang,
) {
  return writeCart(db, config, who, id, lang, async (trx, cart) => {
    if (!(await repo.deleteLine(trx, cart.id, lineId))) throw notFound(`Line ${lineId} not found`);
  });
}

// ---- Sign-in: the guest cart goes to the customer --------------------------------------------

/**
 * Gives the guest cart to the customer who signed in. Without an open cart of theirs, the guest
 * cart becomes it; with one, the guest lines move into it (the same plain product adds up, the
 * same logo transaction stays one line) and the guest cart is marked merged into it. Repeating
 * the call answers the same cart and changes nothing (idempotent). Someone else's cart is 404.
 */
export async function transferCart(
  db: Kysely<ApltDatabase>,
  config: Config,
  who: Shopper,
  id: string,
  lang: Lang,
) {
  const attempt = () =>
    db.transaction().execute(async (trx): Promise<string> => {
      const cart = await repo.lockCart(trx, id);
      if (!reachable(cart, who)) throw notFoundCart(id);
      if (cart.status === 'merged' && cart.merged_into) return cart.merged_into;
      mustBeOpen(cart);
      if (cart.customer_ref === who.ref) return cart.id;
      const mine = await repo.findOpenCartOf(trx, who.ref, true);
      if (!mine) {
        await repo.updateCart(trx, cart.id, { customer_ref: who.ref });
        return cart.id;
      }
      const [from, into] = await Promise.all([repo.linesOf(trx, cart.id), repo.linesOf(trx, mine.id)]);
      let count = into.length;
      for (const l of from) {
        const same = into.find((t) =>
          l.logo_transaction_id !== null
            ? t.logo_transaction_id === l.logo_transaction_id
            : t.logo_transaction_id === null && t.sku === l.sku,
        );
        if (same) {
          if (l.logo_transaction_id === null)
            await repo.setLineQuantity(trx, same.id, Math.min(MAX_LINE_QUANTITY, same.quantity + l.quantity));
          await repo.deleteLine(trx, cart.id, l.id);
        } else count += 1;
      }
      if (count > MAX_CART_LINES)
        throw unprocessable(`Together the carts would hold more than ${MAX_CART_LINES} lines`, {
          max_lines: MAX_CART_LINES,
        });
      await repo.moveLines(trx, cart.id, mine.id);
      await repo.updateCart(trx, cart.id, { status: 'merged', merged_into: mine.id, customer_ref: who.ref });
      await repo.touchCart(trx, mine.id);
      return mine.id;
    });
  let resultId: string;
  try {
    resultId = await attempt();
  } catch (err) {
    // Two transfers of different guest carts at once both found no cart of the customer's; the
    // one index of open carts per customer let one through: the other merges into it now.
    if (!isUniqueViolation(err)) throw err;
    resultId = await attempt();
  }
  return getCart(db, config, who, resultId, lang);
}

// ---- The quotation request -----------------------------------------------------------------

export type CommerceProfile = NonNullable<Awaited<ReturnType<typeof repo.commerceProfile>>>;

/** The signed-in customer's shop account (commerce database), to start their customer record from. */
export async function shopperProfile(
  commerce: Kysely<CommerceDatabase>,
  who: Shopper,
): Promise<CommerceProfile | null> {
  return (await repo.commerceProfile(commerce, who.ref)) ?? null;
}

/**
 * The customer record's starting values: the shop account's, else what the request says (a
 * request's name is split at its first space: "Jan van der Berg" is Jan / van der Berg).
 */
function profileOf(who: Shopper, account: CommerceProfile | null, input: QuoteRequestInput): ShopProfile {
  const [first, ...rest] = (input.name ?? '').trim().split(/\s+/);
  const named = Boolean(account?.first_name || account?.last_name);
  return {
    commerce_customer_id: who.ref,
    email: who.caller.email,
    first_name: named ? (account?.first_name ?? null) : first || null,
    last_name: named ? (account?.last_name ?? null) : rest.join(' ') || null,
    company: account?.company_name || input.company || null,
    phone: account?.phone || input.phone || null,
    language: account?.preferred_language || input.lang || null,
  };
}

/**
 * Turns the cart into a quotation (source `web`) through the quotation service and its
 * numbering, in one transaction with the cart's completion and the audit row. The cart row is
 * locked first: a second request (also a concurrent one) waits, then finds the cart completed
 * and answers 409 naming the same quotation. A guest gives name, e-mail and company (staff
 * decide which customer it is); a signed-in customer's quotation is addressed to them and names
 * their customer record, which is made from their shop account in the same transaction when
 * the tenant has none yet (staff can price, confirm and invoice it without making one by hand).
 */
export async function requestQuotation(
  db: Kysely<ApltDatabase>,
  config: Config,
  who: Shopper | null,
  id: string,
  input: QuoteRequestInput,
  meta: RequestMeta,
  account: CommerceProfile | null = null,
) {
  if (!who) {
    const missing = (['name', 'email', 'company'] as const).filter((k) => !input[k]);
    if (missing.length)
      throw badRequest(`A guest's quotation request needs ${missing.join(', ')}`, {
        issues: missing.map((k) => ({ path: `body.${k}`, message: 'Required' })),
      });
  }
  let customer = who?.caller.customer;
  return db.transaction().execute(async (trx) => {
    const cart = await repo.lockCart(trx, id);
    if (!reachable(cart, who)) throw notFoundCart(id);
    if (cart.status === 'completed') {
      const q = cart.quotation_id === null ? undefined : await repo.quotationRef(trx, cart.quotation_id);
      throw conflict('This cart was already turned into a quotation request', {
        cart_id: cart.id,
        quotation: q ? { id: Number(q.id), quotation_number: q.quotation_number } : null,
      });
    }
    mustBeOpen(cart);
    const lines = await repo.linesOf(trx, cart.id);
    if (!lines.length) throw unprocessable('The cart is empty', { cart_id: cart.id });
    const priced = await priceLines(trx, config, lines);
    const unpriced = priced.filter((p) => !p.price);
    if (unpriced.length)
      throw unprocessable('Some lines can no longer be priced; remove them first', {
        lines: unpriced.map((p) => ({ id: p.line.id, sku: p.line.sku, message: p.error })),
      });
    if (who && !customer)
      customer = await shopCustomerFor(trx, profileOf(who, account, input), {
        ip: meta.ip,
        user_agent: meta.userAgent,
        request_id: meta.requestId,
      });
    const name =
      input.name ?? (customer ? [customer.first_name, customer.last_name].filter(Boolean).join(' ') : '');
    const quotationInput = createQuotationBody.parse({
      source_code: 'web',
      ...(customer ? { customer_id: Number(customer.id) } : {}),
      customer_email: who ? who.caller.email : input.email,
      ...(name ? { customer_name: name } : {}),
      ...((input.company ?? customer?.company)
        ? { customer_company: input.company ?? customer?.company }
        : {}),
      ...(input.lang ? { language: input.lang } : {}),
      ...(input.remark ? { notes: input.remark } : {}),
      title: 'Offerteaanvraag webshop',
      metadata: { cart_id: cart.id, ...(input.phone ? { phone: input.phone } : {}) },
      lines: priced.map(({ line, price }) => ({
        ...price!.line,
        ...(line.logo_transaction_id !== null ? { logo_transaction_id: line.logo_transaction_id } : {}),
        metadata: {
          cart_line_id: line.id,
          ...(line.logo_transaction_id !== null
            ? {
                logo_colors: line.logo_colors,
                proof_url: line.proof_url,
                screenshot_url: line.screenshot_url,
              }
            : {}),
        },
      })),
    });
    const quotation = await createQuotation(trx, config, quotationInput, {
      actor: who ? who.caller.email : null,
      defaultSource: 'web',
    });
    await repo.updateCart(trx, cart.id, {
      status: 'completed',
      quotation_id: quotation.id,
      completed_at: new Date(),
    });
    await recordAudit(trx, {
      actor: who ? who.caller.email : (input.email ?? null),
      actor_type: who ? 'customer' : 'anonymous',
      action: 'quotation.request',
      entity_type: 'quotation',
      entity_id: Number(quotation.id),
      changes: {
        quotation_number: quotation.quotation_number,
        cart_id: cart.id,
        source_code: 'web',
        lines: lines.length,
        total: quotation.total,
      },
      ip: meta.ip,
      user_agent: meta.userAgent,
      request_id: meta.requestId,
    });
    return quotation;
  });
}

/** What the requester sees of the quotation (staff fields stay inside). */
export function requestedQuotationView(q: Awaited<ReturnType<typeof createQuotation>>) {
  return {
    id: Number(q.id),
    quotation_number: q.quotation_number,
    status: q.status,
    source_code: q.source_code,
    // A stored quotation always has both dates.
    quotation_date: q.quotation_date!,
    valid_until: q.valid_until!,
    customer_email: q.customer_email,
    customer_name: q.customer_name,
    customer_company: q.customer_company,
    subtotal: String(q.subtotal),
    setup_cost_total: String(q.setup_cost_total),
    shipping_cost: String(q.shipping_cost),
    vat_total: String(q.vat_total),
    total: String(q.total),
    lines: q.lines.map((l) => ({
      line_no: l.line_no,
      sku: l.sku,
      description: l.description,
      quantity: l.quantity,
      unit_price: String(l.unit_price),
      technique_code: l.technique_code ?? null,
      print_position: l.print_position ?? null,
      print_unit_price: String(l.print_unit_price),
      logo_transaction_id: l.logo_transaction_id ?? null,
      line_total: String(l.line_total),
    })),
  };
}

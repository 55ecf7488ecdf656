'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { addLine, deleteLine, requestQuote, updateLine } from '@lib/data/cart';
import { isLang, type Lang } from '@lib/i18n';

/*
 * Server actions of the cart, as in Medusa's starter: the browser never sees the store API or
 * the cart id (an httpOnly cookie); every input is checked here before it goes on.
 */

const langOf = (form: FormData): Lang => {
  const l = String(form.get('lang') ?? 'nl');
  return isLang(l) ? l : 'nl';
};
const quantityOf = (v: unknown): number | null => {
  const n = Number(v);
  return Number.isInteger(n) && n >= 1 && n <= 1_000_000 ? n : null;
};
const text = (form: FormData, name: string, max: number) =>
  String(form.get(name) ?? '')
    .replace(/\0/g, '')
    .trim()
    .slice(0, max);

export interface AddState {
  ok?: boolean;
  error?: string;
}

/** "Add to cart": a plain line of the product (or the chosen colour) at the quantity. */
export async function addToCartAction(_prev: AddState, form: FormData): Promise<AddState> {
  const lang = langOf(form);
  const sku = text(form, 'sku', 100);
  const variant = text(form, 'variant', 100);
  const quantity = quantityOf(form.get('quantity'));
  if (!sku || quantity === null) return { error: 'quantity 1 - 1,000,000' };
  const res = await addLine({ sku, quantity, ...(variant ? { variant_sku: variant } : {}) });
  if ('error' in res) return { error: res.error.message };
  revalidatePath(`/${lang}`, 'layout');
  return { ok: true };
}

export interface ConfiguredLine {
  sku: string;
  variantSku?: string | undefined;
  quantity: number;
  transactionId: string;
  techniqueCode: string;
  position?: string | undefined;
  colors?: string[] | undefined;
  pdfUrl?: string | undefined;
  screenshotUrl?: string | undefined;
}

const str = (v: unknown, max: number) => (typeof v === 'string' && v.length <= max ? v : undefined);

/** The line the logo modal configured (its SERVICE_LOGO_ADD_TO_ORDER message), into the cart. */
export async function addConfiguredLineAction(input: ConfiguredLine): Promise<AddState> {
  const sku = str(input?.sku, 100);
  const quantity = quantityOf(input?.quantity);
  const transactionId = str(input?.transactionId, 100);
  const technique = str(input?.techniqueCode, 100);
  if (!sku || quantity === null || !transactionId || !technique) return { error: 'incomplete configuration' };
  const variant = str(input.variantSku, 100);
  const position = str(input.position, 100);
  const colors = Array.isArray(input.colors)
    ? input.colors.filter((c) => typeof c === 'string').slice(0, 20)
    : [];
  const proof = str(input.pdfUrl, 2000);
  const screenshot = str(input.screenshotUrl, 2000);
  const res = await addLine({
    sku,
    quantity,
    // "No variant" is variantSku === productSku (spec 3).
    ...(variant && variant !== sku ? { variant_sku: variant } : {}),
    configuration: {
      transaction_id: transactionId,
      technique,
      ...(position ? { position } : {}),
      ...(colors.length ? { colors } : {}),
      ...(proof ? { proof_url: proof } : {}),
      ...(screenshot ? { screenshot_url: screenshot } : {}),
    },
  });
  if ('error' in res) return { error: res.error.message };
  revalidatePath('/', 'layout');
  return { ok: true };
}

export async function updateLineAction(form: FormData): Promise<void> {
  const lang = langOf(form);
  const quantity = quantityOf(form.get('quantity'));
  const line = text(form, 'line_id', 100);
  if (line && quantity !== null) await updateLine(line, quantity);
  revalidatePath(`/${lang}/cart`);
}

export async function removeLineAction(form: FormData): Promise<void> {
  const lang = langOf(form);
  const line = text(form, 'line_id', 100);
  if (line) await deleteLine(line);
  revalidatePath(`/${lang}/cart`);
}

export interface QuoteState {
  error?: string;
  values?: Record<string, string>;
}

/** The quotation request; on success (or when the cart already was one) the confirmation page. */
export async function requestQuoteAction(_prev: QuoteState, form: FormData): Promise<QuoteState> {
  const lang = langOf(form);
  const values = {
    name: text(form, 'name', 200),
    email: text(form, 'email', 320),
    company: text(form, 'company', 200),
    phone: text(form, 'phone', 50),
    remark: text(form, 'remark', 2000),
  };
  const res = await requestQuote({
    ...Object.fromEntries(Object.entries(values).filter(([, v]) => v !== '')),
    lang,
  });
  let number: string;
  if ('error' in res) {
    if (res.error.status === 409 && res.error.quotation) number = res.error.quotation.quotation_number;
    else return { error: res.error.message, values };
  } else number = res.quotation.quotation_number;
  revalidatePath(`/${lang}`, 'layout');
  redirect(`/${lang}/cart/confirmed?number=${encodeURIComponent(number)}`);
}

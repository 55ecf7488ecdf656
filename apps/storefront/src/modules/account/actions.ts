'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { transferCartToCustomer } from '@lib/data/cart';
import * as customers from '@lib/data/customer';
import {
  fileReturn,
  MAX_PHOTO_BYTES,
  MAX_RETURN_PHOTOS,
  type ReturnInput,
  returnReasons,
} from '@lib/data/returns';
import { acceptQuote, rejectQuote } from '@lib/data/quotes';
import { ApiError } from '@lib/data/store-api';
import { isLang, type Lang } from '@lib/i18n';
import { accountError } from './errors';
import { clearSession, pendingSignIn, setPendingSignIn, setSession } from './session';
import { at } from './texts';

/** What a form shows after its action: an error, a confirmation, or data shown once. */
export interface FormState {
  error?: string;
  ok?: string;
  codes?: string[];
  /** An authenticator enrolment in progress: the QR code and the key, shown until confirmed. */
  setup?: customers.AuthenticatorSetup;
  /** The set-up has to start again (it expired). */
  restart?: boolean;
}

const str = (f: FormData, name: string) => {
  const v = f.get(name);
  return typeof v === 'string' ? v.trim() : '';
};
const langOf = (f: FormData): Lang => {
  const l = str(f, 'lang');
  return isLang(l) ? l : 'nl';
};
/** A positive integer id from a form field, or undefined. */
const idOf = (f: FormData, name: string) => {
  const n = Number(str(f, name));
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
};

/** The guest's cart goes with the customer once signed in (spec 1; the cart module's job, never throws). */
async function afterSignIn(token: string): Promise<void> {
  await transferCartToCustomer(token);
}

export async function loginAction(_prev: FormState, form: FormData): Promise<FormState> {
  const lang = langOf(form);
  const email = str(form, 'email');
  const password = form.get('password');
  const remember = form.get('remember') === 'on';
  if (!email || typeof password !== 'string' || !password) return { error: at(lang).errors.invalidLogin };
  let result: customers.LoginResult;
  try {
    result = await customers.login(email, password, remember, lang);
  } catch (err) {
    return { error: accountError(lang, err, 'login') };
  }
  if ('otp_required' in result) {
    await setPendingSignIn({
      email,
      token: result.otp_token,
      remember,
      method: result.method === 'authenticator' ? 'authenticator' : 'email',
    });
    redirect(`/${lang}/account/login/code`);
  }
  await setSession(result.token, remember);
  await afterSignIn(result.token);
  redirect(`/${lang}/account`);
}

export async function otpAction(_prev: FormState, form: FormData): Promise<FormState> {
  const lang = langOf(form);
  const pending = await pendingSignIn();
  if (!pending) return { error: at(lang).otpExpired };
  const code = str(form, 'code').replace(/\s+/g, '');
  const recovery = str(form, 'recovery_code');
  if (!code && !recovery) return { error: at(lang).errors.invalidCode };
  if (code && !/^[0-9]{6}$/.test(code)) return { error: at(lang).errors.invalidCode };
  let token: string;
  try {
    ({ token } = await customers.completeOtp(
      pending.token,
      code ? { email: pending.email, code } : { email: pending.email, recovery_code: recovery },
    ));
  } catch (err) {
    return { error: accountError(lang, err, 'otp') };
  }
  await setSession(token, pending.remember);
  await afterSignIn(token);
  redirect(`/${lang}/account`);
}

export async function resendOtpAction(_prev: FormState, form: FormData): Promise<FormState> {
  const lang = langOf(form);
  const pending = await pendingSignIn();
  if (!pending) return { error: at(lang).otpExpired };
  try {
    await customers.resendOtp(pending.token, pending.email, lang);
  } catch (err) {
    return { error: accountError(lang, err, 'otp') };
  }
  return { ok: at(lang).codeResent };
}

export async function registerAction(_prev: FormState, form: FormData): Promise<FormState> {
  const lang = langOf(form);
  const email = str(form, 'email');
  const password = form.get('password');
  if (!email || typeof password !== 'string') return { error: at(lang).errors.invalid };
  try {
    await customers.register({
      email,
      password,
      first_name: str(form, 'first_name') || undefined,
      last_name: str(form, 'last_name') || undefined,
      company_name: str(form, 'company_name') || undefined,
      lang,
    } as Parameters<typeof customers.register>[0]);
  } catch (err) {
    return { error: accountError(lang, err, 'register') };
  }
  redirect(`/${lang}/account/register/check-email?email=${encodeURIComponent(email)}`);
}

export async function resendVerificationAction(_prev: FormState, form: FormData): Promise<FormState> {
  const lang = langOf(form);
  const email = str(form, 'email');
  if (!email) return { error: at(lang).errors.invalid };
  try {
    await customers.resendVerification(email, lang);
  } catch (err) {
    return { error: accountError(lang, err, 'register') };
  }
  return { ok: at(lang).verificationResent };
}

/** Always the same confirmation: the answer never tells whether the address has an account. */
export async function forgotPasswordAction(_prev: FormState, form: FormData): Promise<FormState> {
  const lang = langOf(form);
  const email = str(form, 'email');
  if (!email || email.length > 254) return { error: at(lang).errors.invalid };
  try {
    await customers.requestPasswordReset(email, lang);
  } catch (err) {
    return { error: accountError(lang, err) };
  }
  return { ok: at(lang).resetRequested };
}

/**
 * The new password with the e-mailed token from the form's hidden field. A token the API refuses
 * (invalid, expired, used) leads to the page's "request a new link" state, without the token in
 * the URL; a refused password stays on the form with the rules. Success ends any session of this
 * browser (the API revoked it) and goes to the sign-in page.
 */
export async function resetPasswordAction(_prev: FormState, form: FormData): Promise<FormState> {
  const lang = langOf(form);
  const tx = at(lang);
  const token = form.get('token');
  const password = form.get('password');
  const repeat = form.get('password_repeat');
  if (typeof token !== 'string' || !token || token.length > 4096) {
    redirect(`/${lang}/account/reset-password?invalid=1`);
  }
  if (typeof password !== 'string' || !password) return { error: tx.errors.password };
  if (password !== repeat) return { error: tx.passwordMismatch };
  try {
    await customers.resetPassword(token, password);
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) redirect(`/${lang}/account/reset-password?invalid=1`);
    return { error: accountError(lang, err, 'reset') };
  }
  await clearSession();
  revalidatePath(`/${lang}`, 'layout');
  redirect(`/${lang}/account/login?password_reset=1`);
}

export async function signOutAction(form: FormData): Promise<void> {
  const lang = langOf(form);
  await clearSession();
  revalidatePath(`/${lang}`, 'layout');
  redirect(`/${lang}/account/login?signed_out=1`);
}

export async function acceptQuoteAction(_prev: FormState, form: FormData): Promise<FormState> {
  const lang = langOf(form);
  const id = idOf(form, 'id');
  if (!id) return { error: at(lang).errors.notFound };
  let order: { order_number: string };
  try {
    order = await acceptQuote(id);
  } catch (err) {
    return { error: accountError(lang, err, 'quote-accept') };
  }
  revalidatePath(`/${lang}/account`, 'layout');
  redirect(`/${lang}/account/quotations/${id}?accepted=${encodeURIComponent(order.order_number)}`);
}

export async function rejectQuoteAction(_prev: FormState, form: FormData): Promise<FormState> {
  const lang = langOf(form);
  const id = idOf(form, 'id');
  const reason = str(form, 'reason');
  if (!id) return { error: at(lang).errors.notFound };
  if (!reason) return { error: at(lang).rejectReasonRequired };
  try {
    await rejectQuote(id, reason.slice(0, 2000));
  } catch (err) {
    return { error: accountError(lang, err) };
  }
  revalidatePath(`/${lang}/account`, 'layout');
  redirect(`/${lang}/account/quotations/${id}?rejected=1`);
}

export async function profileAction(_prev: FormState, form: FormData): Promise<FormState> {
  const lang = langOf(form);
  const language = str(form, 'preferred_language');
  const orNull = (name: string) => str(form, name) || null;
  try {
    await customers.updateProfile({
      first_name: orNull('first_name'),
      last_name: orNull('last_name'),
      company_name: orNull('company_name'),
      phone: orNull('phone'),
      ...(isLang(language) ? { preferred_language: language } : {}),
      notifications: {
        orders: form.get('notify_orders') === 'on',
        quotes: form.get('notify_quotes') === 'on',
        newsletter: form.get('notify_newsletter') === 'on',
      },
    });
  } catch (err) {
    return { error: accountError(lang, err) };
  }
  revalidatePath(`/${lang}`, 'layout');
  return { ok: at(lang).saved };
}

const IMAGE_TYPES = ['image/jpeg', 'image/png'];
const MAX_AVATAR_BYTES = 2 * 1024 * 1024;

export async function avatarAction(_prev: FormState, form: FormData): Promise<FormState> {
  const lang = langOf(form);
  const file = form.get('file');
  if (!(file instanceof File) || file.size === 0) return { error: at(lang).avatarType };
  if (file.size > MAX_AVATAR_BYTES) return { error: at(lang).avatarTooLarge };
  if (file.type && !IMAGE_TYPES.includes(file.type)) return { error: at(lang).avatarType };
  try {
    await customers.uploadAvatar(file, file.name || 'avatar');
  } catch (err) {
    return { error: accountError(lang, err, 'upload') };
  }
  revalidatePath(`/${lang}`, 'layout');
  return { ok: at(lang).avatarSaved };
}

export async function removeAvatarAction(_prev: FormState, form: FormData): Promise<FormState> {
  const lang = langOf(form);
  try {
    await customers.removeAvatar();
  } catch (err) {
    return { error: accountError(lang, err) };
  }
  revalidatePath(`/${lang}`, 'layout');
  return { ok: at(lang).saved };
}

export async function enableTwoFactorAction(_prev: FormState, form: FormData): Promise<FormState> {
  const lang = langOf(form);
  try {
    const { recovery_codes } = await customers.enableTwoFactor();
    return { codes: recovery_codes };
  } catch (err) {
    return { error: accountError(lang, err) };
  }
}

/** Step 1 of an authenticator-app set-up: the password again, then the QR code and the key. */
export async function startAuthenticatorAction(_prev: FormState, form: FormData): Promise<FormState> {
  const lang = langOf(form);
  const password = form.get('password');
  if (typeof password !== 'string' || !password) return { error: at(lang).errors.wrongPassword };
  try {
    return { setup: await customers.startAuthenticatorSetup(password) };
  } catch (err) {
    return { error: accountError(lang, err, 'password') };
  }
}

/** Step 2: the app's first code turns it on; the answer holds the recovery codes, shown once. */
export async function confirmAuthenticatorAction(_prev: FormState, form: FormData): Promise<FormState> {
  const lang = langOf(form);
  const code = str(form, 'code').replace(/\s+/g, '');
  if (!/^[0-9]{6}$/.test(code)) return { error: at(lang).errors.invalidCode };
  try {
    const { recovery_codes } = await customers.confirmAuthenticator(code);
    return { codes: recovery_codes };
  } catch (err) {
    const status = err instanceof ApiError ? err.status : 0;
    // 422: not the app's code (try the next one); 409: the set-up expired or was finished elsewhere.
    if (status === 422) return { error: at(lang).authenticatorWrongCode };
    if (status === 409) return { error: at(lang).authenticatorSetupExpired, restart: true };
    return { error: accountError(lang, err) };
  }
}

export async function disableTwoFactorAction(_prev: FormState, form: FormData): Promise<FormState> {
  const lang = langOf(form);
  const password = form.get('password');
  if (typeof password !== 'string' || !password) return { error: at(lang).disableNeedsPassword };
  try {
    await customers.disableTwoFactor(password);
  } catch (err) {
    return { error: accountError(lang, err, 'password') };
  }
  revalidatePath(`/${lang}/account/security`);
  return { ok: at(lang).twoFactorDisabled };
}

export async function deleteAccountAction(_prev: FormState, form: FormData): Promise<FormState> {
  const lang = langOf(form);
  const password = form.get('password');
  if (typeof password !== 'string' || !password) return { error: at(lang).errors.wrongPassword };
  if (form.get('confirm') !== 'on') return { error: at(lang).deleteConfirm };
  try {
    await customers.deleteAccount(password);
  } catch (err) {
    return { error: accountError(lang, err, 'password') };
  }
  await clearSession();
  revalidatePath(`/${lang}`, 'layout');
  redirect(`/${lang}/account/login?deleted=1`);
}

/**
 * A return of lines of one invoice: per line `qty_<lineId>`, `reason_<lineId>` and
 * `reason_text_<lineId>`; photos in `photos`; `remark`. Checked here first for a message in the
 * page's language; the API checks everything again (ownership, quantities, image content).
 */
export async function fileReturnAction(_prev: FormState, form: FormData): Promise<FormState> {
  const lang = langOf(form);
  const tx = at(lang);
  const invoiceId = idOf(form, 'invoice_id');
  if (!invoiceId) return { error: tx.errors.notFound };
  const lines: ReturnInput['lines'] = [];
  for (const key of form.keys()) {
    const m = /^qty_(\d+)$/.exec(key);
    if (!m) continue;
    const quantity = Number(str(form, key));
    if (!quantity) continue;
    if (!Number.isInteger(quantity) || quantity < 0) return { error: tx.errors.invalid };
    const reason = str(form, `reason_${m[1]}`) as (typeof returnReasons)[number];
    if (!returnReasons.includes(reason)) return { error: tx.errors.invalid };
    const reasonText = str(form, `reason_text_${m[1]}`).slice(0, 1000);
    if (reason === 'other' && !reasonText) return { error: tx.otherNeedsText };
    lines.push({
      invoice_line_id: Number(m[1]),
      quantity,
      reason,
      ...(reasonText && reason === 'other' ? { reason_text: reasonText } : {}),
    });
  }
  if (lines.length === 0) return { error: tx.chooseLines };
  const photos = form.getAll('photos').filter((p): p is File => p instanceof File && p.size > 0);
  if (photos.length > MAX_RETURN_PHOTOS) return { error: tx.tooManyPhotos };
  for (const p of photos) {
    if (p.size > MAX_PHOTO_BYTES) return { error: tx.photoTooLarge(p.name) };
    if (p.type && !IMAGE_TYPES.includes(p.type)) return { error: tx.photoType(p.name) };
  }
  const remark = str(form, 'remark').slice(0, 2000);
  let filed;
  try {
    filed = await fileReturn({ invoice_id: invoiceId, lines, ...(remark ? { remark } : {}) }, photos);
  } catch (err) {
    return { error: accountError(lang, err, 'return') };
  }
  revalidatePath(`/${lang}/account/returns`);
  redirect(`/${lang}/account/returns?filed=${encodeURIComponent(filed.return_number)}`);
}

import { ApiError } from '@lib/data/store-api';
import type { Lang } from '@lib/i18n';
import { at } from './texts';

/** What the failed call was: the same status means different things in different steps. */
export type ErrorContext =
  | 'login'
  | 'register'
  | 'otp'
  | 'password'
  | 'reset'
  | 'document'
  | 'quote-accept'
  | 'upload'
  | 'return'
  | 'other';

/**
 * Any failure of an account call as a sentence in the page's language. The API's own message is
 * English and meant for developers: it goes to the server log, never to the page.
 */
export function accountError(lang: Lang, err: unknown, context: ErrorContext = 'other'): string {
  const e = at(lang).errors;
  if (!(err instanceof ApiError)) {
    console.error('account: unexpected error', err);
    return e.generic;
  }
  if (err.status >= 500 || err.status === 0) console.error(`account: API ${err.status}: ${err.message}`);
  switch (err.status) {
    case 0:
    case 502:
    case 504:
      return e.network;
    case 503:
      return e.busy;
    case 429:
      return e.tooMany;
    case 401:
      if (context === 'login') return e.invalidLogin;
      if (context === 'otp') return e.invalidCode;
      if (context === 'password') return e.wrongPassword;
      if (context === 'reset') return at(lang).resetLinkInvalid;
      return at(lang).sessionExpired;
    case 403:
      if (context === 'login') return e.notVerified;
      return e.notAvailable;
    case 404:
      return e.notFound;
    case 409:
      if (context === 'register') return e.exists;
      if (context === 'quote-accept' && /no longer valid/i.test(err.message)) return e.quoteExpired;
      return e.conflict;
    case 413:
      return e.tooLarge;
    case 415:
      return e.notImage;
    case 422:
      if (context === 'return' && /quantity/i.test(err.message)) return e.returnQuantity;
      if (context === 'upload' || context === 'return') return e.notImage;
      return e.invalid;
    case 400:
      if ((context === 'register' || context === 'reset') && /password/i.test(err.message)) return e.password;
      if (context === 'otp') return e.invalidCode;
      return e.invalid;
    default:
      return e.generic;
  }
}

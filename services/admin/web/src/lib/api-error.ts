import type { FetchError } from '@medusajs/js-sdk';
import type { TFunction } from 'i18next';

/**
 * A failed SDK call: the SDK's FetchError (the API's `message`, the status and its text).
 * Recognised by shape, so any copy of the SDK's class counts.
 */
export function isFetchError(error: unknown): error is FetchError {
  return (
    error instanceof Error &&
    typeof (error as Partial<FetchError>).status === 'number' &&
    typeof (error as Partial<FetchError>).statusText === 'string'
  );
}

/** HTTP status of a failed SDK call; undefined for anything else (network, code). */
export const errorStatus = (error: unknown): number | undefined =>
  isFetchError(error) ? error.status : undefined;

export const isUnauthorized = (error: unknown) => errorStatus(error) === 401;

/** A lazily loaded page chunk that is gone (a new build replaced it while the tab was open). */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module/i.test(
    message,
  );
}

/**
 * What to tell a person about a failed call: the API's own `message` (the fleet's error body,
 * e.g. "Invalid email or password" or "Feature not available"), else a sentence in their
 * language for a network failure or anything unknown. Never empty.
 */
export function errorMessage(error: unknown, t: TFunction): string {
  if (isFetchError(error)) {
    // The SDK falls back to the status text when the body had no message.
    if (error.message && error.message !== error.statusText) return error.message;
    if (!error.status || error.status >= 500) return t('errors.network');
    return error.message || t('errors.unknown');
  }
  if (error instanceof TypeError) return t('errors.network');
  if (isChunkLoadError(error)) return t('errors.chunk');
  if (error instanceof Error && error.message) return error.message;
  return t('errors.unknown');
}

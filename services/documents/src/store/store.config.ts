import { env, loadEnv } from '@aplt/config';

/** Settings of the customer store routes; parsed apart so the core config stays untouched. */
export const storeConfigShape = {
  // Return photos are kept here, per tenant and return (the stored bytes are the checked,
  // re-encoded uploads). Replicas of the documents service must share it, like DOCUMENT_STORE_DIR.
  RETURN_PHOTO_DIR: env.str('.run/documents'),
};

export type StoreConfig = ReturnType<typeof loadStoreConfig>;
export const loadStoreConfig = (source: Record<string, string | undefined> = process.env) =>
  loadEnv(storeConfigShape, source);

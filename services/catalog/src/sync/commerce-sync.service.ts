import type { ApltDatabase, CommerceDatabase, Kysely } from '@aplt/db';
import * as repo from './commerce-sync.repository';

/** Products read in full from the aplt DB and written to the commerce DB per round trip. */
const CHUNK = 2000;

export type CommerceSyncResult = {
  /** Products new or changed since the last sync (all with `full`), written in full... */
  products: number;
  /** ...of which new in the shop (the rest are updates, rows already equal left as they were). */
  inserted: number;
  /** Sellable products whose fingerprint matched: not read in full, not rewritten. */
  unchanged: number;
  variants: number;
  prices: number;
  categories: number;
  removed: number;
};

export interface CommerceSyncOptions {
  /** Rewrite every product, whatever the fingerprints say (repairs edits made in the shop). */
  full?: boolean;
  /** Products handled (written or found unchanged) of the sellable total, after each chunk; inside the transaction. */
  onProgress?: (done: number, total: number) => Promise<void>;
}

/**
 * Copies the sellable catalog of a tenant's aplt DB into its commerce catalog (Medusa-like):
 * product (external_id = aplt SKU, title in the tenant language, other languages in metadata),
 * product_variant per aplt variant (or one for the base SKU), tiered price rows, images and
 * categories. Upserts by external_id / sku, so a re-run is safe; products that stopped being
 * sellable are soft-deleted. One transaction: a failed sync leaves the shop as it was.
 *
 * Incremental: every product has a fingerprint of what the sync copies of it (one SQL
 * definition, below), and the commerce DB keeps the fingerprint last written. Only products whose
 * fingerprint differs are read in full and written, so a sync after a price change touches that
 * product alone. Writes are set-based: each chunk is one statement per commerce table (arrays
 * through unnest), and the next chunk is read from the aplt DB while the current one is written.
 */
export async function syncCommerceCatalog(
  aplt: Kysely<ApltDatabase>,
  commerce: Kysely<CommerceDatabase>,
  opts: CommerceSyncOptions = {},
): Promise<CommerceSyncResult> {
  const onProgress = opts.onProgress ?? (async () => {});
  const total = await repo.countSellable(aplt);
  const out: CommerceSyncResult = {
    products: 0,
    inserted: 0,
    unchanged: 0,
    variants: 0,
    prices: 0,
    categories: 0,
    removed: 0,
  };
  await commerce.transaction().execute(async (trx) => {
    await repo.beginSync(trx);
    out.categories = await repo.syncCategories(aplt, trx);
    for (let after = 0; ;) {
      const scanned = await repo.scanSellable(aplt, after);
      if (scanned.length === 0) break;
      after = scanned[scanned.length - 1]!.id;
      const skus = scanned.map((r) => r.sku);
      await repo.markSeen(trx, skus);
      // Fingerprints are computed only for products the shop has one for: the rest are written anyway.
      const stored = opts.full ? new Map<string, string>() : await repo.storedFingerprints(trx, skus);
      const compared = scanned.filter((r) => stored.has(r.sku)).map((r) => r.id);
      const current =
        compared.length > 0 ? await repo.fingerprints(aplt, compared) : new Map<number, string>();
      const changed = scanned
        .filter((r) => !stored.has(r.sku) || current.get(r.id) !== stored.get(r.sku))
        .map((r) => r.id);
      out.unchanged += scanned.length - changed.length;
      await forEachChunk(
        changed,
        (ids) => repo.readProducts(aplt, ids),
        async (products) => {
          const written = await repo.writeChunk(trx, products);
          out.products += products.length;
          out.inserted += written.inserted;
          out.variants += written.variants;
          out.prices += written.prices;
          // After each chunk as well as each scan: a large first sync reports as it goes.
          await onProgress(out.products + out.unchanged, total);
        },
      );
      await onProgress(out.products + out.unchanged, total);
    }
    out.removed = await repo.removeUnseen(trx);
  });
  return out;
}

/** Reads ids a chunk at a time, the next chunk while the current one is written. */
async function forEachChunk(
  ids: number[],
  read: (ids: number[]) => Promise<repo.SourceProduct[]>,
  write: (products: repo.SourceProduct[]) => Promise<void>,
): Promise<void> {
  let next = ids.length > 0 ? read(ids.slice(0, CHUNK)) : null;
  for (let i = 0; next; i += CHUNK) {
    const products = await next;
    next = i + CHUNK < ids.length ? read(ids.slice(i + CHUNK, i + 2 * CHUNK)) : null;
    // A failed write must not leave the read behind it unobserved (an unhandled rejection).
    next?.catch(() => {});
    await write(products);
  }
}

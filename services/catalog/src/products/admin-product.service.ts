import type { ApltDatabase, Kysely } from '@aplt/db';
import * as repo from './admin-product.repository';

/** A page of the admin's product search, each product with variants, scales and print options. */
export async function listAdminProducts(
  db: Kysely<ApltDatabase>,
  q: {
    q?: string | undefined;
    supplier_code?: string | undefined;
    sellable?: 'true' | 'false' | undefined;
    limit: number;
    offset: number;
  },
) {
  const { ids, count } = await repo.searchProducts(db, {
    ...q,
    sellable: q.sellable === undefined ? undefined : q.sellable === 'true',
  });
  const [products, tiers, variants, positions] = await Promise.all([
    repo.productsByIds(db, ids),
    repo.priceTiers(db, ids),
    repo.variants(db, ids),
    repo.positionsWithTechniques(db, ids),
  ]);
  const byId = new Map(products.map((p) => [p.id, p]));
  const data = ids.flatMap((id) => {
    const p = byId.get(id);
    if (!p) return [];
    const own = positions.filter((x) => x.product_id === id);
    const positionIds = [...new Set(own.map((x) => x.position_id))];
    return [
      {
        ...p,
        price_tiers: tiers
          .filter((t) => t.product_id === id)
          .map(({ min_quantity, price }) => ({ min_quantity, price })),
        variants: variants.filter((v) => v.product_id === id).map(({ product_id: _p, ...v }) => v),
        print_positions: positionIds.map((pid) => {
          const rows = own.filter((x) => x.position_id === pid);
          const first = rows[0]!;
          return {
            id: pid,
            code: first.position_code,
            name: first.position_name,
            print_area: first.position_area,
            techniques: rows
              .filter((r) => r.technique_id !== null)
              .map((r) => ({
                id: r.technique_id!,
                code: r.technique_code!,
                name: r.technique_name!,
                pricing_type: r.pricing_type!,
                max_colours: r.max_colours,
                print_area: r.technique_area,
                is_default: r.is_default ?? false,
              })),
          };
        }),
      },
    ];
  });
  return { data, count, limit: q.limit, offset: q.offset };
}

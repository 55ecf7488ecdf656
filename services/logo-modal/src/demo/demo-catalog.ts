import type { ApltDatabase } from '@aplt/db';
import { type Kysely, sql } from 'kysely';

const svgData = (svg: string) => `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;

/** A tote bag drawn in 600 x 600 units; the front print area is the dashed-free middle square. */
export const toteTemplate = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="600" viewBox="0 0 600 600">
<rect width="600" height="600" fill="#f4f4f4"/>
<path d="M210 170 C210 60 390 60 390 170" fill="none" stroke="#b9a98a" stroke-width="18"/>
<path class="variant-color" d="M120 170 L480 170 L510 560 L90 560 Z" fill="#efe6d2" stroke="#c9bb9b" stroke-width="4"/>
<text x="300" y="590" font-family="sans-serif" font-size="16" text-anchor="middle" fill="#999">Demo tote bag 900-01</text>
</svg>`;

/** A ballpoint pen drawn in 800 x 200 units; the print area sits on the barrel. */
export const penTemplate = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="200" viewBox="0 0 800 200">
<rect width="800" height="200" fill="#ffffff"/>
<rect class="variant-color" x="120" y="70" width="520" height="60" rx="30" fill="#1e4fa3"/>
<polygon points="640,75 740,100 640,125" fill="#c0c0c0"/>
<rect x="90" y="78" width="60" height="44" rx="10" fill="#163b7a"/>
<rect x="140" y="58" width="160" height="10" rx="4" fill="#9fb3d9"/>
</svg>`;

export const demoProducts = [
  {
    sku: '900-01',
    name: 'Demo katoenen tas (logo modal)',
    template: toteTemplate,
    // Sellable in the demo shops (storefront), priced by quantity like the imported catalog.
    retail_price_100: '2.9500',
    tiers: [
      [1, '3.9500'],
      [100, '2.9500'],
      [250, '2.6000'],
      [500, '2.3500'],
      [1000, '2.1000'],
    ],
    variants: [
      { sku: '900-01.001', color_code: 'NAT', color_name: 'Naturel', hex: '#EFE6D2' },
      { sku: '900-01.002', color_code: 'BLK', color_name: 'Zwart', hex: '#222222' },
      { sku: '900-01.003', color_code: 'RED', color_name: 'Rood', hex: '#C62828' },
    ],
    positions: [
      {
        code: 'front',
        name: 'Voorkant',
        print_area: '250x250',
        coordinates: { x: 180, y: 240, width: 240, height: 240 },
      },
    ],
    techniques: [
      { code: 'ZEEFDRUK', name: 'Zeefdruk', position: 'front', is_default: true },
      { code: 'TRANSFER', name: 'Transferdruk full colour', position: 'front', is_default: false },
    ],
  },
  {
    sku: '900-02',
    name: 'Demo balpen (logo modal)',
    template: penTemplate,
    retail_price_100: '0.8900',
    tiers: [
      [1, '1.1900'],
      [100, '0.8900'],
      [500, '0.6900'],
      [1000, '0.5900'],
    ],
    variants: [
      { sku: '900-02.001', color_code: 'BLU', color_name: 'Blauw', hex: '#1E4FA3' },
      { sku: '900-02.002', color_code: 'BLK', color_name: 'Zwart', hex: '#111111' },
    ],
    positions: [
      {
        code: 'barrel',
        name: 'Schacht',
        print_area: '45x6',
        coordinates: { x: 330, y: 82, width: 270, height: 36 },
      },
    ],
    techniques: [
      { code: 'TAMPONDRUK', name: 'Tampondruk', position: 'barrel', is_default: true },
      { code: 'LASER', name: 'Lasergravure', position: 'barrel', is_default: false },
    ],
  },
  {
    // Has a template but no print coordinates: config-check answers available false.
    sku: '900-03',
    name: 'Demo notitieboek zonder drukgegevens',
    template: penTemplate,
    retail_price_100: '4.5000',
    tiers: [],
    variants: [{ sku: '900-03.001', color_code: 'GRY', color_name: 'Grijs', hex: '#888888' }],
    positions: [{ code: 'cover', name: 'Omslag', print_area: '80x60', coordinates: null }],
    techniques: [{ code: 'TAMPONDRUK', name: 'Tampondruk', position: 'cover', is_default: true }],
  },
];

/**
 * Print prices of the demo techniques (any number of colours, a price per further colour) and
 * their setup costs, so a configured line in a demo shop's cart is priced like a real one.
 */
const techniquePrices: Record<
  string,
  { scale: Array<[number, string, string | null]>; setup: string; perColour: boolean }
> = {
  ZEEFDRUK: {
    scale: [
      [1, '0.8500', '0.3500'],
      [100, '0.5500', '0.2500'],
      [500, '0.4000', '0.2000'],
    ],
    setup: '40.00',
    perColour: true,
  },
  TRANSFER: {
    scale: [
      [1, '1.6000', null],
      [100, '1.1000', null],
      [500, '0.8500', null],
    ],
    setup: '25.00',
    perColour: false,
  },
  TAMPONDRUK: {
    scale: [
      [1, '0.4500', '0.2000'],
      [100, '0.3000', '0.1500'],
      [500, '0.2200', '0.1000'],
    ],
    setup: '35.00',
    perColour: true,
  },
  LASER: {
    scale: [
      [1, '0.7500', null],
      [100, '0.5500', null],
      [500, '0.4000', null],
    ],
    setup: '30.00',
    perColour: false,
  },
};

/**
 * Demo products for the logo modal (SKUs 900-xx, reserved for it) in an aplt database. Idempotent:
 * every insert is an upsert on its natural key, so it runs beside the catalog's own seed.
 */
export async function upsertDemoCatalog(db: Kysely<ApltDatabase>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('aplt_suppliers')
      .values({ code: '09', name: 'Demo supplier' })
      .onConflict((oc) => oc.column('code').doNothing())
      .execute();
    for (const p of demoProducts) {
      for (const t of p.techniques) {
        await trx
          .insertInto('aplt_techniques')
          .values({ code: t.code, name_nl: t.name, full_colour: t.code === 'TRANSFER' })
          .onConflict((oc) => oc.column('code').doNothing())
          .execute();
        const prices = techniquePrices[t.code];
        if (!prices) continue;
        for (const [minQuantity, perUnit, nextColour] of prices.scale) {
          await sql`
            INSERT INTO aplt_technique_pricing (technique_id, min_quantity, price_per_unit, next_colour_price)
            SELECT id, ${minQuantity}, ${perUnit}, ${nextColour} FROM aplt_techniques WHERE code = ${t.code}
            ON CONFLICT ON CONSTRAINT aplt_technique_pricing_scale_key DO NOTHING`.execute(trx);
        }
        await sql`
          INSERT INTO aplt_opstartkosten (technique_id, description, setup_cost, per_colour)
          SELECT id, ${`Opstartkosten ${t.name}`}, ${prices.setup}, ${prices.perColour} FROM aplt_techniques WHERE code = ${t.code}
          ON CONFLICT ON CONSTRAINT aplt_opstartkosten_key DO NOTHING`.execute(trx);
      }
      const product = await trx
        .insertInto('aplt_products')
        .values({
          sku: p.sku,
          supplier_code: '09',
          name_nl: p.name,
          has_svg_template: true,
          svg_template_path: svgData(p.template),
          number_of_print_positions: p.positions.length,
          retail_price_100: p.retail_price_100,
        })
        .onConflict((oc) =>
          oc.column('sku').doUpdateSet({
            retail_price_100: (eb) => eb.ref('excluded.retail_price_100'),
            name_nl: (eb) => eb.ref('excluded.name_nl'),
            has_svg_template: true,
            svg_template_path: (eb) => eb.ref('excluded.svg_template_path'),
          }),
        )
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const [minQuantity, price] of p.tiers) {
        await sql`
          INSERT INTO aplt_product_prices (product_id, min_quantity, price)
          VALUES (${product.id}, ${minQuantity}, ${price})
          ON CONFLICT ON CONSTRAINT aplt_product_prices_scale_key DO UPDATE SET price = EXCLUDED.price`.execute(
          trx,
        );
      }
      for (const v of p.variants) {
        await trx
          .insertInto('aplt_product_variants')
          .values({ product_id: product.id, ...v })
          .onConflict((oc) =>
            oc.column('sku').doUpdateSet({
              color_name: (eb) => eb.ref('excluded.color_name'),
              hex: (eb) => eb.ref('excluded.hex'),
            }),
          )
          .execute();
      }
      for (const pos of p.positions) {
        await trx
          .insertInto('aplt_print_positions')
          .values({
            product_id: product.id,
            position_code: pos.code,
            position_name: pos.name,
            print_area: pos.print_area,
            coordinates: pos.coordinates === null ? null : JSON.stringify(pos.coordinates),
          })
          .onConflict((oc) =>
            oc.columns(['product_id', 'position_code']).doUpdateSet({
              print_area: (eb) => eb.ref('excluded.print_area'),
              coordinates: (eb) => eb.ref('excluded.coordinates'),
            }),
          )
          .execute();
      }
      for (const t of p.techniques) {
        await sql`
          INSERT INTO aplt_product_techniques (product_id, technique_id, print_position_id, is_default)
          SELECT ${product.id}, t.id, pp.id, ${t.is_default}
          FROM aplt_techniques t, aplt_print_positions pp
          WHERE t.code = ${t.code} AND pp.product_id = ${product.id} AND pp.position_code = ${t.position}
          ON CONFLICT (product_id, technique_id, print_position_id) DO NOTHING`.execute(trx);
      }
    }
    // Every writer of aplt_products indexes what it wrote for search (catalog migration 0510).
    await sql`SELECT aplt_refresh_product_search()`.execute(trx);
  });
}

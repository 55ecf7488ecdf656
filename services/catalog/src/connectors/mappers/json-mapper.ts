import type { Readable } from 'node:stream';
import Decimal from 'decimal.js';
import {
  bool,
  decimalString,
  intValue,
  optionalDate,
  optionalDecimal,
  optionalInt,
  type PositionRow,
  type PriceRow,
  type PrintRow,
  type ProductRow,
  RowError,
  requiredText,
  type StockRow,
  type TechniqueRow,
  text,
} from '../feed-rows';
import { streamJsonRecords } from '../readers/json-reader';
import { mapRecords, type Parsed } from './parsed';

type Rec = Record<string, unknown>;
const keyOf = (r: Rec) => text(r?.master_code) ?? text(r?.sku) ?? text(r?.id);

/** A per-language field: a plain string (one-language feed) or {nl, en, de}. */
function lang(v: unknown): { nl?: string | undefined; en?: string | undefined; de?: string | undefined } {
  if (v && typeof v === 'object') {
    const o = v as Rec;
    return { nl: text(o.nl), en: text(o.en), de: text(o.de) };
  }
  return { nl: text(v) };
}

export function mapJsonProduct(r: Rec): ProductRow {
  const masterCode = requiredText(r.master_code, 'master_code');
  const names = lang(r.product_name);
  const nl = names.nl ?? names.en ?? names.de;
  if (!nl) throw new RowError('product_name is missing', masterCode);
  const variants = Array.isArray(r.variants) ? r.variants : [];
  return {
    masterCode,
    names: { nl, en: names.en, de: names.de },
    descriptions: lang(r.long_description ?? r.short_description),
    brand: text(r.brand),
    material: text(r.material),
    dimensions: text(r.dimensions),
    countryOfOrigin: text(r.country_of_origin)?.toUpperCase(),
    categoryCode: text(r.category_code),
    printable: bool(r.printable, true),
    numberOfPrintPositions: optionalInt(r.number_of_print_positions, 'number_of_print_positions'),
    images: (Array.isArray(r.digital_assets) ? r.digital_assets : [])
      .filter((a: Rec) => text(a?.url) && (text(a?.type) ?? 'image') === 'image')
      .map((a: Rec) => String(a.url)),
    variants: variants.map((v: Rec) => ({
      supplierSku: requiredText(v.sku, 'variants.sku'),
      supplierVariantId: text(v.variant_id),
      colorCode: requiredText(v.color_code, 'variants.color_code'),
      colorName: text(v.color_description),
      colorGroup: text(v.color_group),
      pmsColor: text(v.pms_color),
      gtin: text(v.gtin),
      plcStatus: text(v.plc_status),
    })),
  };
}

export function mapJsonStock(r: Rec): StockRow {
  const sku = requiredText(r.sku, 'sku');
  try {
    const quantity = intValue(r.qty, 'qty');
    if (quantity < 0) throw new RowError('qty is negative');
    return {
      supplierSku: sku,
      quantity,
      firstArrivalDate: optionalDate(r.first_arrival_date, 'first_arrival_date'),
      firstArrivalQty: optionalInt(r.first_arrival_qty, 'first_arrival_qty'),
      nextArrivalDate: optionalDate(r.next_arrival_date, 'next_arrival_date'),
      nextArrivalQty: optionalInt(r.next_arrival_qty, 'next_arrival_qty'),
    };
  } catch (err) {
    if (err instanceof RowError) throw new RowError(err.message, sku);
    throw err;
  }
}

/** A price row's currency: its own, else the list's (`currency` beside `price`), else EUR. */
export function mapJsonPrice(r: Rec, listCurrency?: string): PriceRow {
  const sku = requiredText(r.sku, 'sku');
  const scales = (Array.isArray(r.scale) ? r.scale : []).map((s: Rec) => ({
    minQuantity: intValue(s.minimum_quantity, 'scale.minimum_quantity'),
    price: decimalString(s.price, 'scale.price'),
  }));
  if (scales.length === 0) scales.push({ minQuantity: 1, price: decimalString(r.price, 'price') });
  return {
    supplierSku: sku,
    currency: text(r.currency) ?? listCurrency ?? 'EUR',
    validUntil: optionalDate(r.valid_until, 'valid_until'),
    scales,
  };
}

const pricingTypes: Record<string, TechniqueRow['pricingType']> = {
  NumberOfColours: 'per_colour',
  NumberOfPositions: 'per_position',
  AreaRange: 'area_range',
  ColourAreaRange: 'colour_area_range',
};

/**
 * A print size in millimetres. Each position names its unit (`print_size_unit`); most suppliers
 * publish mm, some cm (textiles, umbrellas). Anything else is refused rather than stored wrong.
 */
function sizeInMm(v: unknown, unit: unknown, field: string): string | undefined {
  const value = optionalDecimal(v, field);
  if (value === undefined) return undefined;
  const u = text(unit)?.toLowerCase() ?? 'mm';
  if (u === 'mm') return value;
  if (u === 'cm') return new Decimal(value).times(10).toString();
  throw new RowError(`print_size_unit ${String(unit)} is not supported (mm or cm)`);
}

export function mapJsonPrint(r: Rec, supplier: string): PrintRow[] {
  if (r.master_code !== undefined) {
    const masterCode = requiredText(r.master_code, 'master_code');
    return (Array.isArray(r.printing_positions) ? r.printing_positions : []).map((p: Rec) => {
      const row: PositionRow = {
        masterCode,
        positionCode: requiredText(p.position_id, 'position_id'),
        positionName: text(p.position_name) ?? text(p.position_id),
        widthMm: sizeInMm(p.max_print_size_width, p.print_size_unit, 'max_print_size_width'),
        heightMm: sizeInMm(p.max_print_size_height, p.print_size_unit, 'max_print_size_height'),
        rotation: optionalDecimal(p.rotation, 'rotation'),
        points: Array.isArray(p.points) ? p.points : undefined,
        techniques: (Array.isArray(p.printing_techniques) ? p.printing_techniques : []).map((t: Rec) => ({
          code: `${supplier}-${requiredText(t.id, 'printing_techniques.id')}`,
          isDefault: bool(t.default),
          maxColours: optionalInt(t.max_colours, 'max_colours'),
        })),
      };
      return { type: 'position' as const, row };
    });
  }
  const id = requiredText(r.id, 'id');
  const pricingType = pricingTypes[text(r.pricing_type) ?? 'NumberOfColours'];
  if (!pricingType) throw new RowError(`unknown pricing_type ${String(r.pricing_type)}`, id);
  const scales: TechniqueRow['scales'] = [];
  for (const vc of Array.isArray(r.var_costs) ? r.var_costs : []) {
    for (const s of Array.isArray(vc.scales) ? vc.scales : []) {
      scales.push({
        minQuantity: intValue(s.minimum_quantity, 'scales.minimum_quantity'),
        price: decimalString(s.price, 'scales.price'),
        nextColourPrice: optionalDecimal(s.next_price, 'scales.next_price'),
        areaFrom: optionalDecimal(vc.area_from, 'area_from'),
        areaTo: optionalDecimal(vc.area_to, 'area_to'),
      });
    }
  }
  return [
    {
      type: 'technique',
      row: {
        code: `${supplier}-${id}`,
        name: requiredText(r.description, 'description'),
        pricingType,
        setup: decimalString(r.setup ?? '0', 'setup'),
        setupRepeat: optionalDecimal(r.setup_repeat, 'setup_repeat'),
        maxColours: optionalInt(r.max_colours, 'max_colours'),
        fullColour: /full ?colou?r|digital|transfer/i.test(String(r.description)),
        scales,
      },
    },
  ];
}

/**
 * Price records, in the list's currency where a record names none. A list that names its
 * currency only after its prices fails the run rather than store those prices as EUR.
 */
async function* jsonPrices(input: Readable): AsyncGenerator<Parsed<PriceRow>> {
  const root: Record<string, string> = {};
  let defaulted = false;
  const records = streamJsonRecords(input, /^price\.\d+$/, root);
  for await (const parsed of mapRecords(
    records,
    (r: Rec) => {
      if (text(r.currency) === undefined && root.currency === undefined) defaulted = true;
      return mapJsonPrice(r, root.currency);
    },
    keyOf,
  ))
    yield parsed;
  if (defaulted && root.currency !== undefined && root.currency !== 'EUR')
    throw new Error(
      `The price list names its currency (${root.currency}) after its prices; put "currency" before "price"`,
    );
}

/** Midocean-style JSON feeds (also the all-strings PF Concept variant: same mapping, strings coerced). */
export const jsonFeeds = {
  products: (input: Readable) => mapRecords(streamJsonRecords(input, /^\d+$/), mapJsonProduct, keyOf),
  stock: (input: Readable) => mapRecords(streamJsonRecords(input, /^stock\.\d+$/), mapJsonStock, keyOf),
  prices: (input: Readable) => jsonPrices(input),
  printdata: (input: Readable, supplier: string) =>
    mapRecords(
      streamJsonRecords(input, /^(print_techniques|products)\.\d+$/),
      (r: Rec) => mapJsonPrint(r, supplier),
      keyOf,
    ),
};

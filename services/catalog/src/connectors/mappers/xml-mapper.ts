import type { Readable } from 'node:stream';
import {
  decimalString,
  intValue,
  optionalDate,
  optionalDecimal,
  optionalInt,
  type PrintRow,
  type PriceRow,
  type ProductRow,
  RowError,
  requiredText,
  type StockRow,
  type TechniqueRow,
  text,
} from '../feed-rows';
import { asArray, streamXmlRecords, type XmlObject } from '../readers/xml-reader';
import { mapRecords } from './parsed';

type X = Record<string, unknown>;
/** A named child element; text or a list has none (undefined, as a property read on them gave). */
const child = (v: unknown, name: string): unknown =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as X)[name] : undefined;
/**
 * The child elements `name` of `v` as records. Taken as records unchecked: a text in their place
 * has none of the fields, so the field reads refuse the row.
 */
const childRecords = (v: unknown, name: string): X[] => asArray(child(v, name) as X | X[] | undefined);
const keyOf = (r: X) => text(r.ref) ?? text(r.refct) ?? text(r.code);

export function mapXmlProduct(r: X): ProductRow {
  const masterCode = requiredText(r.ref, 'ref');
  const nl = text(r.name_nl) ?? text(r.name);
  if (!nl) throw new RowError('name_nl is missing', masterCode);
  return {
    masterCode,
    names: { nl, en: text(r.name_en), de: text(r.name_de) },
    descriptions: { nl: text(r.descr_nl), en: text(r.descr_en), de: text(r.descr_de) },
    brand: text(r.brand),
    material: text(r.material),
    dimensions: text(r.dimensions),
    countryOfOrigin: text(r.origin)?.toUpperCase(),
    categoryCode: text(r.category),
    printable: text(r.printable) !== '0',
    images: asArray(child(r.images, 'image')).map(String),
    variants: childRecords(r.variants, 'variant').map((v) => ({
      supplierSku: requiredText(v.refct, 'variant.refct'),
      colorCode: requiredText(v.colour, 'variant.colour'),
      colorName: text(v.colourname),
      gtin: text(v.ean),
    })),
  };
}

export function mapXmlStock(r: X): StockRow {
  const sku = requiredText(r.refct ?? r.ref, 'refct');
  try {
    const quantity = intValue(r.stock, 'stock');
    if (quantity < 0) throw new RowError('stock is negative');
    return { supplierSku: sku, quantity, nextArrivalDate: optionalDate(r.available, 'available') };
  } catch (err) {
    if (err instanceof RowError) throw new RowError(err.message, sku);
    throw err;
  }
}

/** Makito product prices: price1..4 with section1..4 (the quantity each price starts at). */
export function mapXmlPrice(r: X): PriceRow {
  const sku = requiredText(r.ref, 'ref');
  const scales: PriceRow['scales'] = [];
  for (let i = 1; i <= 4; i++) {
    const price = text(r[`price${i}`]);
    if (!price) continue;
    scales.push({
      minQuantity: intValue(r[`section${i}`] ?? '1', `section${i}`),
      price: decimalString(price, `price${i}`),
    });
  }
  if (scales.length === 0) throw new RowError('no prices (price1..4)', sku);
  return { supplierSku: sku, currency: 'EUR', scales };
}

/**
 * Makito print-job price list: price1..7 apply below amountunder1..6 (the last above
 * amountunder6), priceaditionalcol1..7 for each further colour, cliche = setup (opstartkosten).
 */
export function mapXmlPrintjob(r: X, supplier: string): PrintRow {
  const code = `${supplier}-${requiredText(r.teccode, 'teccode')}`;
  const scales: TechniqueRow['scales'] = [];
  let from = optionalInt(r.minamount, 'minamount') ?? 1;
  for (let i = 1; i <= 7; i++) {
    const price = text(r[`price${i}`]);
    if (!price) break;
    scales.push({
      minQuantity: Math.max(1, from),
      price: decimalString(price, `price${i}`),
      nextColourPrice: optionalDecimal(r[`priceaditionalcol${i}`], `priceaditionalcol${i}`),
    });
    const under = optionalInt(r[`amountunder${i}`], `amountunder${i}`);
    if (under === undefined) break;
    from = under;
  }
  return {
    type: 'technique',
    row: {
      code,
      name: requiredText(r.name, 'name'),
      pricingType: 'per_colour',
      setup: decimalString(r.cliche ?? '0', 'cliche'),
      setupRepeat: optionalDecimal(r.clicherep, 'clicherep'),
      fullColour: /full ?colou?r|digital|transfer/i.test(String(r.name)),
      scales,
    },
  };
}

export function mapXmlPrintProduct(r: X, supplier: string): PrintRow[] {
  const masterCode = requiredText(r.ref, 'ref');
  const rows: PrintRow[] = [];
  for (const job of childRecords(r.printjobs, 'printjob')) {
    const code = `${supplier}-${requiredText(job.teccode, 'printjob.teccode')}`;
    for (const area of childRecords(job.areas, 'area')) {
      const widthMm = optionalDecimal(area.areawidth, 'areawidth');
      // "areahight" is the supplier's spelling.
      const heightMm = optionalDecimal(area.areahight, 'areahight');
      rows.push({
        type: 'position',
        row: {
          masterCode,
          positionCode: requiredText(area.areacode, 'areacode'),
          positionName: text(area.areaname),
          widthMm,
          heightMm,
          // Areas are listed per printjob: the size is the technique's at this position.
          techniques: [
            {
              code,
              isDefault: false,
              maxColours: optionalInt(job.maxcolour, 'maxcolour'),
              widthMm,
              heightMm,
            },
          ],
        },
      });
    }
  }
  return rows;
}

/** Makito-style XML feeds. */
export const xmlFeeds = {
  products: (input: Readable) => mapRecords(streamXmlRecords(input, ['product']), mapXmlProduct, keyOf),
  stock: (input: Readable) => mapRecords(streamXmlRecords(input, ['product']), mapXmlStock, keyOf),
  prices: (input: Readable) => mapRecords(streamXmlRecords(input, ['product']), mapXmlPrice, keyOf),
  printdata: (input: Readable, supplier: string) =>
    mapRecords(
      streamXmlRecords(input, ['printjob', 'product']),
      (r: XmlObject) =>
        r['#tag'] === 'printjob' ? mapXmlPrintjob(r, supplier) : mapXmlPrintProduct(r, supplier),
      keyOf,
    ),
};

import type { Readable } from 'node:stream';
import {
  bool,
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
  text,
} from '../feed-rows';
import { streamTsvRecords } from '../readers/tsv-reader';
import { mapRecords } from './parsed';

type Line = Record<string, string>;

/** XD-style product files have one line per item (variant); consecutive lines share a ModelCode. */
async function* groupByModel(lines: AsyncIterable<Line>): AsyncGenerator<Line[]> {
  let group: Line[] = [];
  for await (const line of lines) {
    if (group.length > 0 && group[0]?.ModelCode !== line.ModelCode) {
      yield group;
      group = [];
    }
    group.push(line);
  }
  if (group.length > 0) yield group;
}

export function mapTsvProduct(lines: Line[]): ProductRow {
  const first = lines[0] as Line;
  const masterCode = requiredText(first.ModelCode, 'ModelCode');
  const nl = text(first.ItemName_NL) ?? text(first.ItemName_EN);
  if (!nl) throw new RowError('ItemName_NL is missing', masterCode);
  return {
    masterCode,
    names: { nl, en: text(first.ItemName_EN), de: text(first.ItemName_DE) },
    descriptions: {
      nl: text(first.Description_NL),
      en: text(first.Description_EN),
      de: text(first.Description_DE),
    },
    brand: text(first.Brand),
    material: text(first.Material),
    dimensions: text(first.Dimensions),
    countryOfOrigin: text(first.CountryOfOrigin)?.toUpperCase(),
    categoryCode: text(first.MainCategory),
    printable: bool(first.Printable, true),
    numberOfPrintPositions: optionalInt(first.PrintPositions, 'PrintPositions'),
    images: [...new Set(lines.map((l) => text(l.ImageUrl)).filter((u): u is string => !!u))],
    variants: lines.map((l) => ({
      supplierSku: requiredText(l.ItemCode, 'ItemCode'),
      colorCode: requiredText(l.ColorCode, 'ColorCode'),
      colorName: text(l.Color),
      pmsColor: text(l.PMS),
      gtin: text(l.EAN),
    })),
  };
}

export function mapTsvStock(l: Line): StockRow {
  const sku = requiredText(l.ItemCode, 'ItemCode');
  try {
    const quantity = intValue(l.CurrentStock, 'CurrentStock');
    if (quantity < 0) throw new RowError('CurrentStock is negative');
    return {
      supplierSku: sku,
      quantity,
      nextArrivalDate: optionalDate(l.FutureIncomingStockDate1, 'FutureIncomingStockDate1'),
      nextArrivalQty: optionalInt(l.FutureIncomingStockQty1, 'FutureIncomingStockQty1'),
    };
  } catch (err) {
    if (err instanceof RowError) throw new RowError(err.message, sku);
    throw err;
  }
}

export function mapTsvPrice(l: Line): PriceRow {
  const sku = requiredText(l.ItemCode, 'ItemCode');
  const scales: PriceRow['scales'] = [];
  for (let i = 1; i <= 6; i++) {
    const qty = text(l[`Qty${i}`]);
    const price = text(l[`ItemPriceNet_Qty${i}`]);
    if (!qty || !price) continue;
    scales.push({
      minQuantity: intValue(qty, `Qty${i}`),
      price: decimalString(price, `ItemPriceNet_Qty${i}`),
    });
  }
  if (scales.length === 0) throw new RowError('no price tiers (Qty1..6)', sku);
  return { supplierSku: sku, currency: text(l.Currency) ?? 'EUR', scales };
}

/** One print line carries both the technique (with its price tiers) and one position of a model. */
export function mapTsvPrint(l: Line, supplier: string, seen: Set<string>): PrintRow[] {
  const model = requiredText(l.ModelCode, 'ModelCode');
  const code = `${supplier}-${requiredText(l.PrintCode, 'PrintCode')}`;
  const fullColour = bool(l.FullColor);
  const maxColours = optionalInt(l.MaxColors, 'MaxColors');
  const widthMm = optionalDecimal(l.MaxPrintWidthMM, 'MaxPrintWidthMM');
  const heightMm = optionalDecimal(l.MaxPrintHeightMM, 'MaxPrintHeightMM');
  const out: PrintRow[] = [];
  if (!seen.has(code)) {
    seen.add(code);
    const scales = [];
    for (let i = 1; i <= 6; i++) {
      const qty = text(l[`Qty${i}`]);
      const price = text(l[`PrintPriceNet_Qty${i}`]);
      if (!qty || !price) continue;
      scales.push({
        minQuantity: intValue(qty, `Qty${i}`),
        price: decimalString(price, `PrintPriceNet_Qty${i}`),
        nextColourPrice: optionalDecimal(l[`NextColourPriceNet_Qty${i}`], `NextColourPriceNet_Qty${i}`),
      });
    }
    out.push({
      type: 'technique',
      row: {
        code,
        name: requiredText(l.TechniqueName, 'TechniqueName'),
        pricingType: fullColour ? 'full_colour' : 'per_colour',
        setup: decimalString(l.SetupNet || '0', 'SetupNet'),
        smallOrderCharge: optionalDecimal(l.SmallOrderChargeNet, 'SmallOrderChargeNet'),
        maxColours,
        fullColour,
        scales,
      },
    });
  }
  out.push({
    type: 'position',
    row: {
      masterCode: model,
      positionCode: requiredText(l.Position, 'Position'),
      positionName: text(l.Position),
      widthMm,
      heightMm,
      // One row per technique and position: the size is the technique's.
      techniques: [{ code, isDefault: bool(l.Default), maxColours, widthMm, heightMm }],
    },
  });
  return out;
}

/** XD Connects-style tab-separated feeds. */
export const tsvFeeds = {
  products: (input: Readable) =>
    mapRecords(groupByModel(streamTsvRecords(input)), mapTsvProduct, (g) => g[0]?.ModelCode),
  stock: (input: Readable) => mapRecords(streamTsvRecords(input), mapTsvStock, (l) => l.ItemCode),
  prices: (input: Readable) => mapRecords(streamTsvRecords(input), mapTsvPrice, (l) => l.ItemCode),
  printdata: (input: Readable, supplier: string) => {
    const seen = new Set<string>();
    return mapRecords(
      streamTsvRecords(input),
      (l) => mapTsvPrint(l, supplier, seen),
      (l) => l.ModelCode,
    );
  },
};

import type { Readable } from 'node:stream';
import type { PriceRow, PrintRow, ProductRow, StockRow } from './feed-rows';
import { jsonFeeds } from './mappers/json-mapper';
import type { Parsed } from './mappers/parsed';
import { tsvFeeds } from './mappers/tsv-mapper';
import { xmlFeeds } from './mappers/xml-mapper';

export const supplierCodes = ['01', '02', '03', '04', '05', '06', '07', '09'] as const;
export const feedKinds = ['products', 'stock', 'prices', 'printdata'] as const;
export type SupplierCode = (typeof supplierCodes)[number];
export type FeedKind = (typeof feedKinds)[number];
export type FeedFormat = 'json' | 'tsv' | 'xml' | 'strings_json';

/**
 * The format each supplier publishes in (real-world shapes, see reference/supplier-feeds.md):
 * Midocean-style JSON, XD-style tab-separated, Makito-style XML, PF-style all-strings JSON. A
 * supplier row's feed_format may override it; feed locations live in its settings.feeds.
 */
export const defaultFormats: Record<SupplierCode, FeedFormat> = {
  '01': 'json',
  '02': 'tsv',
  '03': 'xml',
  '04': 'json',
  '05': 'tsv',
  '06': 'strings_json',
  '07': 'xml',
  '09': 'json',
};

export interface FeedParsers {
  products(input: Readable): AsyncIterable<Parsed<ProductRow>>;
  stock(input: Readable): AsyncIterable<Parsed<StockRow>>;
  prices(input: Readable): AsyncIterable<Parsed<PriceRow>>;
  printdata(input: Readable, supplier: string): AsyncIterable<Parsed<PrintRow>>;
}

export const parsersByFormat: Record<FeedFormat, FeedParsers> = {
  json: jsonFeeds,
  strings_json: jsonFeeds,
  tsv: tsvFeeds,
  xml: xmlFeeds,
};

export interface ConnectorName {
  name: string;
  supplier: SupplierCode;
  kind: FeedKind;
}

/** Every connector: `<supplier>_<kind>` for each supplier code and feed kind (32). */
export const connectors: ConnectorName[] = supplierCodes.flatMap((supplier) =>
  feedKinds.map((kind) => ({ name: `${supplier}_${kind}`, supplier, kind })),
);

export function findConnector(name: string): ConnectorName | undefined {
  return connectors.find((c) => c.name === name);
}

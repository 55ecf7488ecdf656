import type { ApltDatabase, Kysely } from '@aplt/db';
import type { AiProvider } from './ai-provider';
import { searchProducts, type SearchHit } from './product-search.repository';
import {
  colourWords,
  parseProductQuery,
  type SearchFilters,
  searchFilters,
  techniqueSynonyms,
} from './query-parser';

const EXTRACT_PROMPT = `You extract product-search filters for a promotional-products shop from a question in Dutch, English or German.
Answer a JSON object {"terms": string (product words only, e.g. "pen"), "colour": English colour name or null,
"max_unit_price": decimal string in euros per unit or null ("onder 50 cent" -> "0.50"),
"technique": one of "pad print", "screen print", "laser engraving", "embroidery", "full colour" or null,
"quantity": integer or null}.`;

/** Filters from the provider when it answers with a valid object, else from the built-in parser. */
export async function extractFilters(
  ai: AiProvider,
  query: string,
): Promise<{ filters: SearchFilters; source: string }> {
  const fromAi = await ai.completeJson(EXTRACT_PROMPT, query);
  if (fromAi) {
    const parsed = searchFilters.safeParse({
      terms: fromAi.terms ?? '',
      colour: fromAi.colour ?? null,
      max_unit_price:
        fromAi.max_unit_price === null || fromAi.max_unit_price === undefined
          ? null
          : String(fromAi.max_unit_price),
      technique: fromAi.technique ?? null,
      quantity: fromAi.quantity ?? null,
    });
    if (
      parsed.success &&
      (parsed.data.max_unit_price === null || /^\d+(\.\d+)?$/.test(parsed.data.max_unit_price))
    ) {
      return {
        filters: { ...parsed.data, colour: parsed.data.colour?.toLowerCase() ?? null },
        source: ai.name,
      };
    }
  }
  return { filters: parseProductQuery(query), source: 'builtin' };
}

export async function runSearch(
  db: Kysely<ApltDatabase>,
  filters: SearchFilters,
  limit: number,
): Promise<SearchHit[]> {
  const colours = filters.colour ? (colourWords[filters.colour] ?? [filters.colour]) : [];
  const technique = filters.technique
    ? (techniqueSynonyms[filters.technique] ?? [filters.technique]).join('|')
    : '';
  const hits = await searchProducts(db, filters, colours, technique, limit);
  // Terms that match nothing (a typo, an unknown word) should not hide what the filters found.
  if (hits.length === 0 && filters.terms.includes(' ')) {
    const first = filters.terms.split(' ').sort((a, b) => b.length - a.length)[0] ?? '';
    return searchProducts(db, { ...filters, terms: first }, colours, technique, limit);
  }
  return hits;
}

export async function productSearch(db: Kysely<ApltDatabase>, ai: AiProvider, query: string, limit: number) {
  const { filters, source } = await extractFilters(ai, query);
  const hits = await runSearch(db, filters, limit);
  return {
    query,
    filters,
    provider: source,
    results: hits.map((h) => ({
      id: h.id,
      sku: h.sku,
      name: { nl: h.name_nl, en: h.name_en, de: h.name_de },
      unit_price: h.unit_price,
      quantity: h.quantity,
      colours: h.colours,
      techniques: h.techniques,
      score: Math.round(h.rank * 10000) / 10000,
    })),
  };
}

import type { ApltDatabase, Kysely } from '@aplt/db';
import * as facts from './ai-facts.repository';
import Decimal from 'decimal.js';
import type { AiProvider } from './ai-provider';
import { runSearch } from './product-search.service';
import { colourWords, parseProductQuery, type SearchFilters, techniqueSynonyms } from './query-parser';

interface Request {
  filters: SearchFilters;
  colours: number;
  text: string;
}

/** Splits "500 blauwe pennen met tampondruk 1 kleur en 250 mokken" into one request per item. */
export function splitRequests(text: string): Request[] {
  return text
    .split(/\s*(?:[;\n]|,(?!\d)|\ben\b|\band\b|\bund\b|\bplus\b)\s*/i)
    .map((s) => s.trim())
    .filter((s) => /\p{L}{3,}/u.test(s))
    .map((s) => {
      const colours = /(\d+)\s*(kleur(en)?|colou?rs?|farben?|-colou?r)/i.exec(s);
      const cleaned = colours ? s.replace(colours[0], ' ') : s;
      const filters = parseProductQuery(cleaned);
      return {
        filters: { ...filters, max_unit_price: null },
        colours: colours ? Number(colours[1]) : 1,
        text: s,
      };
    });
}

const LINES_PROMPT = `Split a request for promotional products (Dutch, English or German) into items. Answer JSON
{"items":[{"terms": product words, "colour": English colour or null, "quantity": integer or null,
"technique": "pad print"|"screen print"|"laser engraving"|"embroidery"|"full colour"|null, "colours": integer print colours or 1}]}.`;

/** An item of the model's answer: only `terms` is required, the rest is checked where it is read. */
interface AiItem {
  terms: string;
  colour?: unknown;
  quantity?: unknown;
  technique?: unknown;
  colours?: unknown;
}
const isAiItem = (i: unknown): i is AiItem =>
  typeof i === 'object' && i !== null && typeof (i as { terms?: unknown }).terms === 'string';
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0;

async function requestsFrom(ai: AiProvider, text: string): Promise<{ requests: Request[]; source: string }> {
  const answer = await ai.completeJson(LINES_PROMPT, text);
  const raw = answer?.items;
  const items: unknown[] | undefined = Array.isArray(raw) ? raw : undefined;
  if (items && items.length > 0 && items.every(isAiItem)) {
    return {
      source: ai.name,
      requests: items.map((i) => ({
        filters: {
          terms: i.terms,
          colour: typeof i.colour === 'string' ? i.colour.toLowerCase() : null,
          max_unit_price: null,
          technique: typeof i.technique === 'string' ? i.technique : null,
          quantity: isCount(i.quantity) ? i.quantity : null,
        },
        colours: isCount(i.colours) ? i.colours : 1,
        text: String(i.terms),
      })),
    };
  }
  return { requests: splitRequests(text), source: 'builtin' };
}

const money = (d: Decimal) => d.toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2);

/**
 * Proposed quotation lines: the best-matching sellable product, the variant in the asked colour,
 * the retail unit price from its scales at the quantity, and the print price from the
 * technique's scale (price per unit + each further colour) plus setup costs per colour.
 */
export async function generateLines(db: Kysely<ApltDatabase>, ai: AiProvider, text: string) {
  const { requests, source } = await requestsFrom(ai, text);
  const lines = [];
  const unmatched: string[] = [];
  for (const req of requests) {
    const quantity = req.filters.quantity ?? 100;
    const [hit] = await runSearch(db, { ...req.filters, quantity }, 1);
    if (!hit) {
      unmatched.push(req.text);
      continue;
    }
    const colours = req.filters.colour ? (colourWords[req.filters.colour] ?? []) : [];
    const variant = await facts.variantFor(db, hit.id, colours);
    const techPattern = req.filters.technique
      ? (techniqueSynonyms[req.filters.technique] ?? [req.filters.technique]).join('|')
      : null;
    const technique = await facts.techniqueFor(db, hit.id, techPattern);
    const printColours = technique?.max_colours ? Math.min(req.colours, technique.max_colours) : req.colours;
    let printUnit = new Decimal(0);
    let setup = new Decimal(0);
    if (technique) {
      const scale = await facts.printScale(db, technique.id, quantity, printColours);
      const opstart = await facts.setupCost(db, technique.id, hit.id);
      if (scale) {
        printUnit = new Decimal(scale.price_per_unit).plus(
          new Decimal(scale.next_colour_price ?? 0).times(printColours - 1),
        );
      }
      const setupPer = new Decimal(opstart?.setup_cost ?? scale?.setup_cost ?? 0);
      setup = opstart && !opstart.per_colour ? setupPer : setupPer.times(printColours);
    }
    const unit = new Decimal(hit.unit_price ?? 0);
    const lineTotal = unit.plus(printUnit).times(quantity).plus(setup);
    lines.push({
      request: req.text,
      product_id: hit.id,
      sku: hit.sku,
      name: hit.name_nl,
      variant_id: variant?.id ?? null,
      variant_sku: variant?.sku ?? null,
      colour: variant?.color_name ?? null,
      quantity,
      unit_price: unit.toFixed(4),
      technique: technique ? { code: technique.code, name: technique.name_nl } : null,
      print_position: technique?.position_code ?? null,
      print_area: technique?.print_area ?? null,
      print_colours: technique ? printColours : 0,
      print_unit_price: printUnit.toFixed(4),
      setup_cost: money(setup),
      line_total: money(lineTotal),
    });
  }
  const total = lines.reduce((sum, l) => sum.plus(l.line_total), new Decimal(0));
  return { provider: source, lines, unmatched, total: money(total), currency: 'EUR' as const };
}

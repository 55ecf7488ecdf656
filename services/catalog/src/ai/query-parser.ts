import Decimal from 'decimal.js';
import { z } from 'zod';

/** Structured filters pulled out of a natural-language product question. */
export const searchFilters = z.object({
  terms: z.string(),
  colour: z.string().nullable(),
  max_unit_price: z.string().nullable(),
  technique: z.string().nullable(),
  quantity: z.number().int().positive().nullable(),
});
export type SearchFilters = z.infer<typeof searchFilters>;

/** Colour words in nl/en/de -> the English colour name used as the canonical filter. */
const colours: Record<string, string> = {
  blauw: 'blue',
  blauwe: 'blue',
  blue: 'blue',
  blau: 'blue',
  blaue: 'blue',
  blauer: 'blue',
  blauen: 'blue',
  rood: 'red',
  rode: 'red',
  red: 'red',
  rot: 'red',
  rote: 'red',
  roter: 'red',
  groen: 'green',
  groene: 'green',
  green: 'green',
  grün: 'green',
  grun: 'green',
  grüne: 'green',
  zwart: 'black',
  zwarte: 'black',
  black: 'black',
  schwarz: 'black',
  schwarze: 'black',
  wit: 'white',
  witte: 'white',
  white: 'white',
  weiss: 'white',
  weiß: 'white',
  weisse: 'white',
  geel: 'yellow',
  gele: 'yellow',
  yellow: 'yellow',
  gelb: 'yellow',
  gelbe: 'yellow',
  oranje: 'orange',
  orange: 'orange',
  paars: 'purple',
  purple: 'purple',
  lila: 'purple',
  grijs: 'grey',
  grijze: 'grey',
  grey: 'grey',
  gray: 'grey',
  grau: 'grey',
  roze: 'pink',
  pink: 'pink',
  rosa: 'pink',
};
/** Words for each colour in every language, to match colour names stored in any language. */
export const colourWords: Record<string, string[]> = {};
for (const [word, c] of Object.entries(colours)) (colourWords[c] ??= []).push(word);

const techniques: Array<[RegExp, string]> = [
  [/tampon ?druk|pad ?print(ing)?|tampondruck/i, 'pad print'],
  [/zeefdruk|screen ?print(ing)?|siebdruck/i, 'screen print'],
  [/laser ?(gravure|engraving|gravur)|graveren|engrave/i, 'laser engraving'],
  [/borduren|borduring|embroider(y|ed)?|stick(erei|en)/i, 'embroidery'],
  [/full ?colou?r|digitaal|digital ?print|transfer/i, 'full colour'],
];
/** Words that name each technique in stored technique names (nl/en/de). */
export const techniqueSynonyms: Record<string, string[]> = {
  'pad print': ['tampon', 'pad ?print'],
  'screen print': ['zeefdruk', 'screen ?print', 'siebdruck'],
  'laser engraving': ['laser', 'graver', 'engrav', 'gravur'],
  embroidery: ['borduur', 'borduren', 'embroider', 'stick'],
  'full colour': ['full ?colou?r', 'digita', 'transfer'],
};

const stop = new Set(
  'met with mit onder under unter below beneath voor for für fur de het een the a an ein eine und and en of oder or stuks stuk pieces pcs stück stuck x cent cents euro eur € ik wil i want need nodig graag please bitte zoek search find suche vind'.split(
    ' ',
  ),
);

/**
 * The built-in (deterministic) extraction: colour words in three languages, "onder/under/unter
 * 50 cent" or "€ 0,50" as a unit-price ceiling, technique names, "500 stuks/pieces/Stück" as the
 * quantity; what is left are the search terms.
 */
export function parseProductQuery(input: string): SearchFilters {
  let s = ` ${input.toLowerCase()} `;
  let max: string | null = null;
  const price =
    /(onder|under|unter|below|max(imaal|imum)?|tot|bis|<)\s*(€|eur|euro)?\s*(\d+(?:[.,]\d+)?)\s*(cents|cent|ct|euros|euro|eur|€)?/i.exec(
      s,
    );
  if (price) {
    const n = new Decimal((price[4] as string).replace(',', '.'));
    const isCents =
      /^c/.test(price[5] ?? '') ||
      (!price[3] && !price[5] && n.gte(5) && !(price[4] as string).match(/[.,]/));
    max = (isCents ? n.div(100) : n).toFixed(4);
    s = s.replace(price[0], ' ');
  }
  let quantity: number | null = null;
  const qty = /(\d{1,7})\s*(stuks|stuk|pieces|pcs|st\.|stück|stueck|x)\b/i.exec(s);
  if (qty) {
    quantity = Number(qty[1]);
    s = s.replace(qty[0], ' ');
  } else {
    // "500 blauwe pennen": a number leading the request is the quantity.
    const leading = /^\s*(\d{1,7})\s+(?=\p{L})/u.exec(s);
    if (leading) {
      quantity = Number(leading[1]);
      s = s.replace(leading[0], ' ');
    }
  }
  let technique: string | null = null;
  for (const [re, name] of techniques) {
    const m = re.exec(s);
    if (m) {
      technique = name;
      s = s.replace(m[0], ' ');
      break;
    }
  }
  let colour: string | null = null;
  const words = s.split(/[^\p{L}\p{N}-]+/u).filter(Boolean);
  const rest: string[] = [];
  for (const w of words) {
    const c = colours[w];
    if (c && !colour) colour = c;
    else if (!c && !stop.has(w) && !/^\d+$/.test(w)) rest.push(w);
  }
  // Plural forms: "pennen", "pens", "Kugelschreiber" -> stems that match the singular in names.
  const terms = rest.map(singular).join(' ');
  return { terms, colour, max_unit_price: max, technique, quantity };
}

/** Plural to singular, enough for prefix matching: pennen/pens -> pen, mokken -> mok, tassen -> tas. */
export function singular(w: string): string {
  const doubled = /^(.{2,}?)([bcdfgklmnprst])\2en$/u.exec(w);
  if (doubled) return `${doubled[1]}${doubled[2]}`;
  if (w.length > 5 && w.endsWith('en')) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1);
  return w;
}

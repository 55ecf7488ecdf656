import type { ApltDatabase, Kysely } from '@aplt/db';
import * as facts from './ai-facts.repository';
import type { AiProvider } from './ai-provider';

type Intent = 'open_quotations' | 'overdue_invoices' | 'best_sellers';

const intentWords: Array<[Intent, RegExp]> = [
  ['open_quotations', /offerte|quot|angebot|angebote/i],
  [
    'overdue_invoices',
    /factu|invoice|rechnung|achterstallig|overdue|vervallen|te laat|überfällig|ueberfaellig|openstaand|unpaid|receivable/i,
  ],
  ['best_sellers', /best ?sell|bestseller|meest verkocht|populair|top ?product|verkauf|best verkocht|top/i],
];

/** The tenant's own figures, straight from its aplt tables; every answer carries the numbers used. */
/** The figures behind an answer, by intent (only the intents asked for); a type, so a JSON record. */
export type AssistData = {
  open_quotations?: { count: number; total: string; expiring_within_7_days: number };
  overdue_invoices?: { count: number; outstanding: string; oldest_due_date: string | null };
  best_sellers?: Array<{ sku: string; description: string | null; quantity: number; revenue: string }>;
};

export async function assistData(db: Kysely<ApltDatabase>, intents: Intent[]): Promise<AssistData> {
  const data: AssistData = {};
  if (intents.includes('open_quotations')) {
    const r = await facts.openQuotations(db);
    data.open_quotations = {
      count: Number(r?.count ?? 0),
      total: r?.total ?? '0',
      expiring_within_7_days: Number(r?.expiring_7d ?? 0),
    };
  }
  if (intents.includes('overdue_invoices')) {
    const r = await facts.overdueInvoices(db);
    data.overdue_invoices = {
      count: Number(r?.count ?? 0),
      outstanding: r?.outstanding ?? '0',
      oldest_due_date: r?.oldest ?? null,
    };
  }
  if (intents.includes('best_sellers')) {
    const rows = await facts.bestSellers(db);
    data.best_sellers = rows.map((r) => ({
      sku: r.sku,
      description: r.description,
      quantity: Number(r.quantity),
      revenue: r.revenue,
    }));
  }
  return data;
}

function template(lang: 'nl' | 'en', data: AssistData): string {
  const parts: string[] = [];
  const q = data.open_quotations;
  if (q)
    parts.push(
      lang === 'nl'
        ? `Er staan ${q.count} offertes open met een totaal van € ${q.total} (${q.expiring_within_7_days} verlopen binnen 7 dagen).`
        : `There are ${q.count} open quotations worth € ${q.total} in total (${q.expiring_within_7_days} expire within 7 days).`,
    );
  const i = data.overdue_invoices;
  if (i)
    parts.push(
      lang === 'nl'
        ? `${i.count} facturen zijn over de vervaldatum, openstaand € ${i.outstanding}${i.oldest_due_date ? ` (oudste vervaldatum ${i.oldest_due_date})` : ''}.`
        : `${i.count} invoices are overdue, € ${i.outstanding} outstanding${i.oldest_due_date ? ` (oldest due date ${i.oldest_due_date})` : ''}.`,
    );
  const b = data.best_sellers;
  if (b)
    parts.push(
      b.length === 0
        ? lang === 'nl'
          ? 'Er zijn nog geen verkochte producten gefactureerd.'
          : 'No products have been invoiced yet.'
        : (lang === 'nl' ? 'Best verkocht: ' : 'Best sellers: ') +
            b.map((x) => `${x.description ?? x.sku} (${x.quantity})`).join(', ') +
            '.',
    );
  return parts.join(' ');
}

export async function assist(db: Kysely<ApltDatabase>, ai: AiProvider, question: string) {
  let intents = intentWords.filter(([, re]) => re.test(question)).map(([i]) => i);
  if (intents.length === 0) intents = ['open_quotations', 'overdue_invoices', 'best_sellers'];
  const data = await assistData(db, intents);
  const lang = /\b(hoeveel|welke|wat|zijn|facturen|offertes|openstaande|mijn|onze)\b/i.test(question)
    ? 'nl'
    : 'en';
  const fromAi = await ai.completeText(
    'You are the admin assistant of a promotional-products company. Answer the question briefly, in the language of the question, using ONLY the figures in the JSON data; amounts are euros.',
    `Question: ${question}\nData: ${JSON.stringify(data)}`,
  );
  return {
    answer: fromAi?.trim() || template(lang, data),
    intents,
    data,
    provider: fromAi ? ai.name : 'builtin',
  };
}

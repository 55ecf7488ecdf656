import type { ApltDatabase, Kysely } from '@aplt/db';

export type SystemAccount = 'receivables' | 'revenue' | 'vat_payable' | 'bank' | 'customer_credit';

/** Dutch chart-of-accounts defaults, created on first posting when the tenant has no seed. */
const defaults: Record<SystemAccount, { code: string; name: string; type: string }> = {
  receivables: { code: '1300', name: 'Debiteuren', type: 'asset' },
  bank: { code: '1100', name: 'Bank', type: 'asset' },
  vat_payable: { code: '1500', name: 'Af te dragen BTW', type: 'liability' },
  customer_credit: { code: '1610', name: 'Vooruitontvangen van klanten', type: 'liability' },
  revenue: { code: '8000', name: 'Omzet', type: 'revenue' },
};

/** Ledger account id per system key; missing system accounts are created (idempotently). */
export async function systemAccounts(db: Kysely<ApltDatabase>): Promise<Record<SystemAccount, number>> {
  const keys = Object.keys(defaults) as SystemAccount[];
  let rows = await db
    .selectFrom('aplt_ledger_accounts')
    .select(['id', 'system_key'])
    .where('system_key', 'in', keys)
    .execute();
  if (rows.length < keys.length) {
    const have = new Set(rows.map((r) => r.system_key));
    for (const k of keys.filter((k) => !have.has(k))) {
      await db
        .insertInto('aplt_ledger_accounts')
        .values({ ...defaults[k], system_key: k })
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
    rows = await db
      .selectFrom('aplt_ledger_accounts')
      .select(['id', 'system_key'])
      .where('system_key', 'in', keys)
      .execute();
    if (rows.length < keys.length)
      throw new Error(
        'Ledger accounts for the system keys are missing and could not be created (code taken?)',
      );
  }
  return Object.fromEntries(rows.map((r) => [r.system_key, r.id])) as Record<SystemAccount, number>;
}

export interface JournalLineInput {
  ledger_account_id: number;
  debit?: string;
  credit?: string;
  description?: string;
  customer_id?: number | null;
  vat_code_id?: number | null;
}

/** One entry with its lines; the deferred trigger rejects the commit if they do not balance. */
export async function insertJournal(
  db: Kysely<ApltDatabase>,
  entry: {
    entry_date: string;
    description: string;
    source_type: 'invoice' | 'credit_note' | 'payment' | 'allocation';
    source_id: number;
    created_by?: string | null;
  },
  lines: JournalLineInput[],
) {
  const e = await db
    .insertInto('aplt_journal_entries')
    .values({ ...entry, created_by: entry.created_by ?? null })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('aplt_journal_lines')
    .values(
      lines.map((l) => ({
        journal_entry_id: e.id,
        debit: l.debit ?? '0',
        credit: l.credit ?? '0',
        ledger_account_id: l.ledger_account_id,
        description: l.description ?? null,
        customer_id: l.customer_id ?? null,
        vat_code_id: l.vat_code_id ?? null,
      })),
    )
    .execute();
  return e.id;
}

export async function journalsOf(db: Kysely<ApltDatabase>, sourceType: string, sourceId: number) {
  const entries = await db
    .selectFrom('aplt_journal_entries')
    .selectAll()
    .where('source_type', '=', sourceType)
    .where('source_id', '=', sourceId)
    .orderBy('id')
    .execute();
  if (!entries.length) return [];
  const lines = await db
    .selectFrom('aplt_journal_lines as l')
    .innerJoin('aplt_ledger_accounts as a', 'a.id', 'l.ledger_account_id')
    .select([
      'l.journal_entry_id',
      'l.debit',
      'l.credit',
      'l.description',
      'a.code as account_code',
      'a.system_key',
    ])
    .where(
      'l.journal_entry_id',
      'in',
      entries.map((e) => e.id),
    )
    .orderBy('l.id')
    .execute();
  return entries.map((e) => ({ ...e, lines: lines.filter((l) => l.journal_entry_id === e.id) }));
}

import type { ApltDatabase, Kysely } from '@aplt/db';
import { D, type Decimal, money } from '../shared/money';
import {
  insertJournal,
  journalsOf,
  type JournalLineInput,
  type SystemAccount,
  systemAccounts,
} from './ledger.repository';

/** The journal entries (with lines and accounts) a document posted. */
export const journalOf = (db: Kysely<ApltDatabase>, sourceType: string, sourceId: number) =>
  journalsOf(db, sourceType, sourceId);

type Leg = { account: SystemAccount; side: 'debit' | 'credit'; amount: Decimal.Value; description?: string };

/**
 * Posts one balanced entry. Zero legs are dropped (a journal line is debit XOR credit > 0).
 * Debit and credit are checked here before the database's deferred trigger checks them again.
 */
export async function post(
  db: Kysely<ApltDatabase>,
  entry: {
    entry_date: string;
    description: string;
    source_type: 'invoice' | 'credit_note' | 'payment' | 'allocation';
    source_id: number;
    created_by?: string | null;
  },
  legs: Leg[],
  customerId: number | null,
) {
  const live = legs.filter((l) => D(l.amount).gt(0));
  if (!live.length) return null;
  const debit = live.filter((l) => l.side === 'debit').reduce((a, l) => a.plus(l.amount), D(0));
  const credit = live.filter((l) => l.side === 'credit').reduce((a, l) => a.plus(l.amount), D(0));
  if (!debit.eq(credit))
    throw new Error(`Unbalanced journal for ${entry.source_type} ${entry.source_id}: ${debit} <> ${credit}`);
  const accounts = await systemAccounts(db);
  const lines: JournalLineInput[] = live.map((l) => ({
    ledger_account_id: accounts[l.account],
    [l.side]: money(l.amount),
    description: l.description,
    customer_id: customerId,
  }));
  return insertJournal(db, entry, lines);
}

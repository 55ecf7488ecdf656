import type { Kysely, Selectable, Transaction } from 'kysely';
import type { FileKind, ModalDb } from '../db-types';

type Db = Kysely<ModalDb> | Transaction<ModalDb>;
export type TransactionRow = Selectable<ModalDb['aplt_logo_transactions']>;
export type FileRow = Selectable<ModalDb['aplt_logo_files']>;

export interface NewTransaction {
  basket_id: string | null;
  customer_id: string | null;
  source: string | null;
  product_sku: string;
  variant_sku: string | null;
  selected_color: string | null;
  technique_code: string | null;
  technique_name: string | null;
  print_area: string | null;
  quantity: number;
  callback_url: string | null;
  logo_config: Record<string, unknown>;
}

export async function insertTransaction(db: Db, values: NewTransaction): Promise<TransactionRow> {
  return db
    .insertInto('aplt_logo_transactions')
    .values({ ...values, logo_config: JSON.stringify(values.logo_config), files: '{}' })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findTransaction(db: Db, id: string): Promise<TransactionRow | undefined> {
  return db.selectFrom('aplt_logo_transactions').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function updateTransaction(
  db: Db,
  id: string,
  patch: Partial<Omit<NewTransaction, 'logo_config'>> & {
    logo_config?: Record<string, unknown>;
    files?: Record<string, string>;
    status?: 'draft' | 'completed' | 'cancelled';
    callback_status?: 'none' | 'pending' | 'delivered' | 'failed';
    callback_attempts?: number;
    callback_delivered_at?: Date | null;
    completed_at?: Date | null;
    cancelled_at?: Date | null;
  },
): Promise<void> {
  const { logo_config, files, ...rest } = patch;
  await db
    .updateTable('aplt_logo_transactions')
    .set({
      ...rest,
      ...(logo_config ? { logo_config: JSON.stringify(logo_config) } : {}),
      ...(files ? { files: JSON.stringify(files) } : {}),
    })
    .where('id', '=', id)
    .execute();
}

export async function upsertFile(
  db: Db,
  row: {
    transaction_id: string;
    kind: FileKind;
    storage_key: string;
    content_type: string;
    size_bytes: number;
    sha256: string;
    width_px?: number | null;
    height_px?: number | null;
  },
): Promise<void> {
  await db
    .insertInto('aplt_logo_files')
    .values({ ...row, width_px: row.width_px ?? null, height_px: row.height_px ?? null })
    .onConflict((oc) =>
      oc.columns(['transaction_id', 'kind']).doUpdateSet((eb) => ({
        storage_key: eb.ref('excluded.storage_key'),
        content_type: eb.ref('excluded.content_type'),
        size_bytes: eb.ref('excluded.size_bytes'),
        sha256: eb.ref('excluded.sha256'),
        width_px: eb.ref('excluded.width_px'),
        height_px: eb.ref('excluded.height_px'),
        updated_at: new Date(),
      })),
    )
    .execute();
}

export async function listFiles(db: Db, transactionId: string): Promise<FileRow[]> {
  return db.selectFrom('aplt_logo_files').selectAll().where('transaction_id', '=', transactionId).execute();
}

export async function deleteFiles(db: Db, transactionId: string): Promise<void> {
  await db.deleteFrom('aplt_logo_files').where('transaction_id', '=', transactionId).execute();
}

/** Drafts created before the cutoff: modals opened, maybe a logo uploaded, never ordered. */
export async function findStaleDrafts(db: Db, before: Date, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('aplt_logo_transactions')
    .select('id')
    .where('status', '=', 'draft')
    .where('created_at', '<', before)
    .orderBy('created_at')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

import type { Kysely } from '@aplt/db';

export type DocType = 'quotation' | 'order' | 'invoice' | 'proforma' | 'credit_note' | 'payment';
export type RelationType =
  'converted' | 'invoiced' | 'proforma' | 'credited' | 'allocated' | 'copied' | 'related';

export async function insertRelation(
  db: Kysely<any>,
  r: {
    source_type: DocType;
    source_id: number | string;
    target_type: DocType;
    target_id: number | string;
    relation_type: RelationType;
    created_by?: string | null;
    metadata?: unknown;
  },
) {
  await db
    .insertInto('aplt_document_relations')
    .values({ ...r, created_by: r.created_by ?? null, metadata: JSON.stringify(r.metadata ?? {}) })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** Every edge touching any of the given documents, in either direction. */
export async function relationsTouching(db: Kysely<any>, nodes: Array<{ type: DocType; id: string }>) {
  if (!nodes.length) return [];
  return db
    .selectFrom('aplt_document_relations')
    .selectAll()
    .where((eb) =>
      eb.or(
        nodes.flatMap((n) => [
          eb.and([eb('source_type', '=', n.type), eb('source_id', '=', n.id)]),
          eb.and([eb('target_type', '=', n.type), eb('target_id', '=', n.id)]),
        ]),
      ),
    )
    .orderBy('id')
    .execute();
}

/** Removes the edges into a document that is being deleted (only pending orders and proformas are). */
export async function deleteRelationsTo(db: Kysely<any>, type: DocType, id: number | string) {
  await db
    .deleteFrom('aplt_document_relations')
    .where('target_type', '=', type)
    .where('target_id', '=', id)
    .execute();
}

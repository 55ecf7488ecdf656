import type { ApltDatabase, Kysely } from '@aplt/db';

export type DocType = 'quotation' | 'order' | 'invoice' | 'proforma' | 'credit_note' | 'payment';
export type RelationType =
  'converted' | 'invoiced' | 'proforma' | 'credited' | 'allocated' | 'copied' | 'related';

export async function insertRelation(
  db: Kysely<ApltDatabase>,
  r: {
    source_type: DocType;
    source_id: number;
    target_type: DocType;
    target_id: number;
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
export async function relationsTouching(
  db: Kysely<ApltDatabase>,
  nodes: Array<{ type: DocType; id: number }>,
) {
  if (!nodes.length) return [];
  return (
    db
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
      // The table's CHECKs allow only these values.
      .$narrowType<{ source_type: DocType; target_type: DocType; relation_type: RelationType }>()
      .execute()
  );
}

/** Removes the edges into a document that is being deleted (only pending orders and proformas are). */
export async function deleteRelationsTo(db: Kysely<ApltDatabase>, type: DocType, id: number) {
  await db
    .deleteFrom('aplt_document_relations')
    .where('target_type', '=', type)
    .where('target_id', '=', id)
    .execute();
}

import type { ApltDatabase, Kysely } from '@aplt/db';

export interface AuditEntry {
  actor: string | null;
  actor_type: 'admin' | 'customer' | 'agent' | 'automation' | 'system' | 'anonymous';
  action: string;
  entity_type: string;
  entity_id: string | number | null;
  changes?: unknown;
  ip?: string | null;
  user_agent?: string | null;
  request_id?: string | null;
}

/** Writes one audit row; call it in the transaction of the change so both commit together. */
export async function writeAudit(db: Kysely<ApltDatabase>, e: AuditEntry): Promise<void> {
  await db
    .insertInto('aplt_audit_log')
    .values({
      actor: e.actor,
      actor_type: e.actor_type,
      action: e.action,
      entity_type: e.entity_type,
      entity_id: e.entity_id == null ? null : String(e.entity_id),
      changes: e.changes === undefined ? null : JSON.stringify(e.changes),
      ip: e.ip ?? null,
      user_agent: e.user_agent ?? null,
      request_id: e.request_id ?? null,
    })
    .execute();
}

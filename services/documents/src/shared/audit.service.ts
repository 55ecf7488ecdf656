import type { Kysely } from '@aplt/db';
import { type AuditEntry, writeAudit } from './audit.repository';

/**
 * Records who changed what. Written right after the change's own transaction committed: an audit
 * row never exists for a change that rolled back.
 */
export async function recordAudit(db: Kysely<any>, entry: AuditEntry): Promise<void> {
  await writeAudit(db, entry);
}

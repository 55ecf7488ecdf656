import type { ApltDatabase, Kysely } from '@aplt/db';
import { type AuditEntry, writeAudit } from './audit.repository';

/**
 * Records who changed what. Callers pass the change's own transaction, so the audit row and the
 * change commit or roll back together.
 */
export async function recordAudit(db: Kysely<ApltDatabase>, entry: AuditEntry): Promise<void> {
  await writeAudit(db, entry);
}

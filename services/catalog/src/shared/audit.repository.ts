import type { ApltDatabase, Kysely } from '@aplt/db';
import type { FastifyRequest } from 'fastify';

/** Who changed something, for aplt_audit_log: the admin of the token and the request's traces. */
export interface AuditActor {
  actor: string | null;
  ip: string | null;
  user_agent: string | null;
  request_id: string | null;
}

export const auditActor = (request: FastifyRequest): AuditActor => ({
  actor: request.actor?.actorId ?? null,
  ip: request.ip ?? null,
  user_agent: request.headers['user-agent'] ?? null,
  request_id: request.id,
});

/** One audit row, written in the transaction of the change so both commit or neither does. */
export async function writeAudit(
  db: Kysely<ApltDatabase>,
  who: AuditActor,
  e: { action: string; entity_type: string; entity_id: number | string; changes: unknown },
): Promise<void> {
  await db
    .insertInto('aplt_audit_log')
    .values({
      actor: who.actor,
      actor_type: 'admin',
      action: e.action,
      entity_type: e.entity_type,
      entity_id: String(e.entity_id),
      changes: JSON.stringify(e.changes),
      ip: who.ip,
      user_agent: who.user_agent,
      request_id: who.request_id,
    })
    .execute();
}

import type { Kysely, ApltDatabase } from '@aplt/db';
import { conflict, notFound, tooManyRequests } from '@aplt/http';
import * as repo from './access-request.repository';

export type VisitorStatus = repo.AccessStatus | 'none';

const messages: Record<VisitorStatus, string> = {
  approved: 'Access granted.',
  pending: 'Your access request is under review.',
  rejected: 'Access to this shop has been denied.',
  none: 'This shop is only open to approved visitors. Please request access.',
};

export async function checkAccess(db: Kysely<ApltDatabase>, ip: string) {
  const latest = await repo.latestForIp(db, ip);
  const status: VisitorStatus = latest?.status ?? 'none';
  return { has_access: status === 'approved', status, message: messages[status] };
}

/** How many requests one address may file per hour: enough for typos, not for flooding admins. */
export const REQUESTS_PER_HOUR = 5;

export async function requestAccess(
  db: Kysely<ApltDatabase>,
  ip: string,
  body: { name: string; email: string; company: string; message: string },
) {
  const latest = await repo.latestForIp(db, ip);
  if (latest?.status === 'pending')
    throw conflict('An access request for this address is already under review', { status: 'pending' });
  if (latest?.status === 'approved')
    throw conflict('This address already has access', { status: 'approved' });
  const recent = await repo.countSince(db, ip, new Date(Date.now() - 3600_000));
  if (recent >= REQUESTS_PER_HOUR) throw tooManyRequests('Too many access requests from this address', 3600);
  const row = await repo.insertRequest(db, { ip, ...body });
  return { id: row.id, status: row.status, message: messages.pending };
}

export async function decideRequest(
  db: Kysely<ApltDatabase>,
  input: {
    id: number;
    status: 'approved' | 'rejected';
    reason?: string | undefined;
    admin: string;
    ip: string;
    requestId: string;
  },
) {
  return db.transaction().execute(async (trx) => {
    const current = await repo.findForUpdate(trx, input.id);
    if (!current) throw notFound(`Access request ${input.id} not found`);
    if (current.status !== 'pending') {
      throw conflict(`Access request ${input.id} is already ${current.status}`, {
        status: current.status,
        allowed: [],
      });
    }
    const updated = await repo.decide(trx, input.id, input.status, input.admin);
    await repo.audit(trx, {
      actor: input.admin,
      action: `access_request.${input.status}`,
      entityId: input.id,
      changes: {
        status: [current.status, input.status],
        ip_address: current.ip_address,
        reason: input.reason ?? null,
      },
      ip: input.ip,
      requestId: input.requestId,
    });
    return updated;
  });
}

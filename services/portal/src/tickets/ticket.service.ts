import type { PortalDb } from '../db';
import { conflict, forbidden, notFound, unprocessable } from '@aplt/http';
import type { SessionWithUser } from '../auth/session.repository';
import type { DevProjectsClient } from './devprojects.client';
import * as repo from './ticket.repository';

/** Clients see only their own tickets; admins and developers see all. */
const ownerFilter = (viewer: SessionWithUser) => (viewer.role === 'client' ? viewer.user_id : undefined);

export async function getVisibleTicket(db: PortalDb, viewer: SessionWithUser, id: number) {
  const ticket = await repo.findTicket(db, id, ownerFilter(viewer));
  // Someone else's ticket is reported exactly like a missing one: its existence is not the client's business.
  if (!ticket) throw notFound('Ticket not found', { id });
  return ticket;
}

export function listVisibleTickets(
  db: PortalDb,
  viewer: SessionWithUser,
  filter: { status?: repo.TicketStatus | undefined; limit: number; offset: number },
) {
  return repo.listTickets(db, { ...filter, ownerId: ownerFilter(viewer) });
}

export async function createTicket(
  db: PortalDb,
  viewer: SessionWithUser,
  input: {
    subject: string;
    description: string;
    category: (typeof repo.categories)[number];
    priority: (typeof repo.ticketPriorities)[number];
    tenant_id?: string | null;
  },
) {
  const id = await db.transaction().execute((trx) =>
    repo.insertTicket(trx, {
      user_id: viewer.user_id,
      tenant_id: input.tenant_id ?? null,
      subject: input.subject,
      description: input.description,
      category: input.category,
      priority: input.priority,
    }),
  );
  return (await repo.findTicket(db, id)) as repo.TicketRow;
}

export interface TicketPatch {
  subject?: string;
  description?: string;
  category?: string;
  priority?: string;
  status?: string;
  tenant_id?: string | null;
}

/**
 * What each role may change. Admins: everything. Developers: the working fields (status,
 * priority, category), not who or which tenant a ticket is for. Clients: the text of their own
 * ticket while it is open, and closing it.
 */
function allowedFields(viewer: SessionWithUser, ticket: repo.TicketRow): Array<keyof TicketPatch> {
  switch (viewer.role) {
    case 'admin':
      return ['subject', 'description', 'category', 'priority', 'status', 'tenant_id'];
    case 'developer':
      return ['category', 'priority', 'status'];
    case 'client':
      return ticket.status === 'open' ? ['subject', 'description', 'status'] : ['status'];
  }
}

export async function updateTicket(db: PortalDb, viewer: SessionWithUser, id: number, patch: TicketPatch) {
  const ticket = await getVisibleTicket(db, viewer, id);
  const allowed = allowedFields(viewer, ticket);
  const refused = (Object.keys(patch) as Array<keyof TicketPatch>).filter(
    (k) => patch[k] !== undefined && !allowed.includes(k),
  );
  if (refused.length)
    throw forbidden(`Your role may not change ${refused.join(', ')} of this ticket`, { fields: refused });
  if (viewer.role === 'client' && patch.status !== undefined && patch.status !== 'closed')
    throw forbidden('Clients can only close their tickets', { fields: ['status'] });
  if (patch.tenant_id !== undefined && ticket.dev_project_id !== null && patch.tenant_id !== ticket.tenant_id)
    throw conflict('The ticket already has a dev project in its tenant; its tenant cannot change');
  const set = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
  await repo.updateTicket(db, id, set);
  return (await repo.findTicket(db, id)) as repo.TicketRow;
}

export async function addMessage(db: PortalDb, viewer: SessionWithUser, ticketId: number, body: string) {
  const ticket = await getVisibleTicket(db, viewer, ticketId);
  if (ticket.status === 'closed') throw conflict('The ticket is closed');
  await db.transaction().execute(async (trx) => {
    await repo.insertMessage(trx, { ticket_id: ticket.id, user_id: viewer.user_id, body });
    // A client's answer hands a waiting ticket back to support.
    if (viewer.role === 'client' && ticket.status === 'waiting')
      await repo.updateTicket(trx, ticket.id, { status: 'open' });
  });
  return repo.listMessages(db, ticket.id);
}

/** Spec 1: bug -> bugfix, feature -> feature; anything else is an enhancement. */
export function projectTypeFor(category: string): 'bugfix' | 'feature' | 'enhancement' {
  if (category === 'bug') return 'bugfix';
  if (category === 'feature') return 'feature';
  return 'enhancement';
}

/** Spec 1: urgent -> critical; the other priorities keep their names. */
export function projectPriorityFor(priority: string): 'low' | 'normal' | 'high' | 'critical' {
  if (priority === 'urgent') return 'critical';
  if (priority === 'low' || priority === 'high') return priority;
  return 'normal';
}

/**
 * Creates the ticket's dev project in the ticket's tenant through the devprojects service, then
 * links both ways (the service stores ticket_id/ticket_number on the project; we store the
 * project on the ticket). The service answers the same project on a retry, so a lost answer or
 * a double click never makes two projects.
 */
export async function createDevProjectFromTicket(
  deps: { db: PortalDb; devprojects: DevProjectsClient },
  viewer: SessionWithUser,
  ticketId: number,
  portalUrl: string,
) {
  const ticket = await getVisibleTicket(deps.db, viewer, ticketId);
  if (ticket.dev_project_id !== null)
    throw conflict('The ticket already has a dev project', {
      dev_project_id: ticket.dev_project_id,
      dev_project_branch: ticket.dev_project_branch,
    });
  if (!ticket.tenant_id) throw unprocessable('The ticket names no tenant; set tenant_id first');
  const created = await deps.devprojects.createFromTicket({
    tenant: ticket.tenant_id,
    ticket_id: ticket.id,
    ticket_number: ticket.ticket_number,
    name: `${ticket.ticket_number}: ${ticket.subject}`.slice(0, 255),
    description: ticket.description,
    project_type: projectTypeFor(ticket.category),
    priority: projectPriorityFor(ticket.priority),
    created_by: viewer.email,
  });
  const project = created.dev_project;
  const projectUrl = `${created.base_url}/app/settings/dev-projects?code=${encodeURIComponent(project.project_code)}`;
  const linked = await repo.linkDevProject(deps.db, ticket.id, {
    dev_project_id: project.id,
    dev_project_branch: project.branch_name,
    dev_project_code: project.project_code,
    dev_project_url: projectUrl,
  });
  if (!linked) throw conflict('The ticket was linked to another dev project meanwhile');
  return {
    ticket: (await repo.findTicket(deps.db, ticket.id)) as repo.TicketRow,
    dev_project: project,
    links: {
      ticket: `${portalUrl}/support?ticket=${ticket.id}`,
      dev_project: projectUrl,
      dev_project_by_id: `${created.base_url}/app/settings/dev-projects?project=${project.id}`,
    },
  };
}

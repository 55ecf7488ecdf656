import type { ApltDatabase, CommerceDatabase, Kysely, TenantDatabases } from '@aplt/db';
import { unauthorized } from '@aplt/http';
import type { QueueClient } from '@aplt/queue';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config';

/** What route modules need besides the request: the tenant pools and the service config. */
export interface DocumentsContext {
  databases: TenantDatabases;
  config: Config;
  /** Producer side of the queues (job schedulers); absent in apps built without Redis. */
  queues?: QueueClient;
}

/** The aplt database of the tenant the request's Host named. */
export function apltDb(ctx: DocumentsContext, request: FastifyRequest): Kysely<ApltDatabase> {
  if (!request.tenant) throw unauthorized('Unknown tenant');
  return ctx.databases.aplt<ApltDatabase>(request.tenant);
}

/** The tenant's commerce (shop) database: its customers and staff users, not the aplt documents. */
export function commerceDb(ctx: DocumentsContext, request: FastifyRequest): Kysely<CommerceDatabase> {
  if (!request.tenant) throw unauthorized('Unknown tenant');
  return ctx.databases.commerce<CommerceDatabase>(request.tenant);
}

/** Who did it, for created_by and the audit log. */
export const actorName = (request: FastifyRequest): string | null => request.actor?.actorId ?? null;

/** Today's date (UTC) as YYYY-MM-DD; documents are dated in calendar days. */
export const today = (): string => new Date().toISOString().slice(0, 10);

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Whole days from a to b (b - a) for YYYY-MM-DD dates. */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

/** pg returns `date` columns as Date objects in local time unless parsed; normalise to YYYY-MM-DD. */
export function isoDate(v: unknown): string | null {
  if (v == null) return null;
  if (v instanceof Date) {
    const y = v.getFullYear();
    const m = String(v.getMonth() + 1).padStart(2, '0');
    const d = String(v.getDate()).padStart(2, '0');
    return `${y}-${m}-${d}`;
  }
  return String(v).slice(0, 10);
}

import type { ApltDatabase, Selectable } from '@aplt/db';

/** A json/jsonb value as the driver parses it (the generated types' Json, minus null). */
export type Json = NonNullable<Selectable<ApltDatabase['aplt_audit_log']>['changes']>;

/** A JSON object: what a jsonb column holds when every writer writes an object (metadata, addresses). */
export type JsonObject = Exclude<Json, unknown[] | string | number | boolean>;

/** The value when it is a JSON object, else an empty one (a jsonb column read as a record). */
export const jsonObject = (v: Json | null | undefined): JsonObject =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? v : {};

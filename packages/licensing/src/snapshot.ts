import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

export const snapshotSchema = z.object({
  tenant_id: z.string(),
  features: z.array(z.string()),
  revision: z.string().nullable(),
  etag: z.string().nullable(),
  fetched_at: z.string(),
});
export type Snapshot = z.infer<typeof snapshotSchema>;

export const snapshotPath = (dir: string, tenantId: string) => join(dir, `features-${tenantId}.json`);

/** Read synchronously at start, before the service answers its first request. */
export function readSnapshot(dir: string, tenantId: string): Snapshot | null {
  let text: string;
  try {
    text = readFileSync(snapshotPath(dir, tenantId), 'utf8');
  } catch {
    return null;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // A damaged file (disk full, hand edit) counts as no snapshot: the next link of the chain.
    return null;
  }
  const parsed = snapshotSchema.safeParse(json);
  return parsed.success && parsed.data.tenant_id === tenantId ? parsed.data : null;
}

/**
 * Write to a private temporary file in the same directory, then rename over the snapshot: rename
 * is atomic on one file system, so another process never reads half a file.
 */
export function writeSnapshot(dir: string, snapshot: Snapshot): void {
  mkdirSync(dir, { recursive: true });
  const target = snapshotPath(dir, snapshot.tenant_id);
  const tmp = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(tmp, JSON.stringify(snapshot, null, 2));
  renameSync(tmp, target);
}

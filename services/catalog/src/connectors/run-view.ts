import { type RunPhaseName, type RunView, runSchema } from './run.schemas';
import type { SyncRun } from './sync-run.repository';

/** A run row as the API shows it, with the progress a UI draws (see run.schemas.ts). */
export function toRun(r: SyncRun): RunView {
  const p = (r.metadata?.progress ?? {}) as {
    phase?: RunPhaseName;
    done?: number | null;
    total?: number | null;
    unit?: 'bytes' | 'products' | 'rows' | null;
  };
  const stored = r.progress === null ? 0 : Number(r.progress);
  const view = {
    queued: { phase: 'queued' as const, percent: 0 },
    running: { phase: p.phase ?? ('starting' as const), percent: Math.min(99, stored) },
    succeeded: { phase: 'succeeded' as const, percent: 100 },
    failed: { phase: 'failed' as const, percent: Math.min(99, stored) },
  }[r.status];
  const total = p.total ?? null;
  return runSchema.parse({
    ...r,
    ...view,
    total,
    done: r.status === 'succeeded' && total !== null ? total : (p.done ?? null),
    unit: p.unit ?? null,
  });
}

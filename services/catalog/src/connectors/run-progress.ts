import type { ApltDatabase, Kysely } from '@aplt/db';
import { writeProgress } from './sync-run.repository';

/**
 * Where a run is, for a progress bar: a phase, the measure of the work (`done` of `total`, in
 * `unit`) and a percentage. The run's code only changes this object (cheap, per record or per
 * chunk); a ProgressTicker writes it to the run row at a fixed interval and at each phase change,
 * so a run that waits (a slow feed host, a lock) still shows where it is.
 */
export type RunPhase = 'starting' | 'reading' | 'writing' | 'indexing' | 'finishing';
export type WorkUnit = 'bytes' | 'products' | 'rows';

export interface ProgressSnapshot {
  phase: RunPhase;
  done: number | null;
  total: number | null;
  unit: WorkUnit | null;
  /** 0-99 while the run works; 100 is written only when the run succeeded. */
  percent: number;
  rowsRead?: number;
}

export class RunProgress {
  phase: RunPhase = 'starting';
  done: number | null = null;
  total: number | null = null;
  unit: WorkUnit | null = null;
  rowsRead: number | undefined;
  /** The percentage span of the current phase: `from` at its start, `to` when its work is done. */
  private from = 0;
  private to = 0;

  /**
   * Enters a phase whose measured work maps onto [from, to] percent; without `work` the measure
   * of the phase before stays (a bar that stands still at `from` while, say, the index is built).
   */
  enter(phase: RunPhase, from: number, to = from, work?: { unit: WorkUnit; total: number | null }) {
    this.phase = phase;
    this.from = from;
    this.to = to;
    if (work) {
      this.unit = work.unit;
      this.total = work.total;
      this.done = 0;
    }
  }

  get percent(): number {
    const share =
      this.done !== null && this.total !== null && this.total > 0 ? Math.min(1, this.done / this.total) : 0;
    return Math.min(99, Math.floor((this.from + (this.to - this.from) * share) * 100) / 100);
  }

  snapshot(): ProgressSnapshot {
    return {
      phase: this.phase,
      done: this.done,
      total: this.total,
      unit: this.unit,
      percent: this.percent,
      ...(this.rowsRead !== undefined ? { rowsRead: this.rowsRead } : {}),
    };
  }
}

/** How often a working run writes its progress (the run row is polled by the admin panel). */
export const PROGRESS_INTERVAL_MS = 1000;

/**
 * Writes a RunProgress to its run row every `everyMs` and on demand, never two writes at once,
 * outside the run's own transaction (so readers see it while the run works). The percentage
 * never goes back (the statement keeps the larger one), and stop() waits for a write in flight,
 * so a late write cannot land after the run's final state.
 */
export class ProgressTicker {
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> = Promise.resolve();
  private busy = false;
  private stopped = false;

  constructor(
    private readonly db: Kysely<ApltDatabase>,
    private readonly runId: number,
    private readonly progress: RunProgress,
    private readonly everyMs = PROGRESS_INTERVAL_MS,
  ) {}

  start(): this {
    this.timer = setInterval(() => void this.tick(), this.everyMs);
    this.timer.unref();
    return this;
  }

  /** Writes now (a phase change), after the write in flight. */
  async now(): Promise<void> {
    if (this.stopped) return;
    await this.inFlight;
    await this.write();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.inFlight;
  }

  private tick(): Promise<void> {
    if (this.busy || this.stopped) return this.inFlight;
    return this.write();
  }

  private write(): Promise<void> {
    this.busy = true;
    this.inFlight = writeProgress(this.db, this.runId, this.progress.snapshot())
      // A lost progress write is not worth failing a run for; the next tick writes again.
      .catch(() => {})
      .finally(() => {
        this.busy = false;
      });
    return this.inFlight;
  }
}

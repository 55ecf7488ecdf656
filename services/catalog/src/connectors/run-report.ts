import type { ApltDatabase, Kysely } from '@aplt/db';
import type { Counts } from './import.repository';
import { RunProgress } from './run-progress';
import { addRejects, updateProgress } from './sync-run.repository';

export type Reject = { rowNumber: number; key?: string | undefined; reason: string; raw: unknown };

/**
 * Counts and rejects of one run. Rejects are written outside the run transaction (so the report
 * survives a failed run), a thousand at a time, together with the progress figures.
 */
export class RunReport {
  readonly totals = { read: 0, inserted: 0, updated: 0, unchanged: 0, rejected: 0 };
  private pending: Reject[] = [];
  private lastRow = 0;

  constructor(
    private readonly db: Kysely<ApltDatabase>,
    private readonly runId: number,
    private readonly signal?: AbortSignal,
    readonly progress = new RunProgress(),
    /** Where the percentage stands once the whole feed is read (the rest is writing). */
    private readonly readShare = 95,
  ) {}

  /** A feed record was read (one record may yield several rows: print data). */
  read(rowNumber: number): void {
    if (rowNumber !== this.lastRow) {
      this.totals.read++;
      this.lastRow = rowNumber;
      this.progress.rowsRead = this.totals.read;
    }
  }

  /** The whole feed is read; what is left is writing what it gave. */
  feedRead(): void {
    this.progress.enter('writing', this.readShare);
  }

  reject(r: Reject): void {
    this.pending.push(r);
  }

  add(c: Counts): void {
    this.totals.inserted += c.inserted;
    this.totals.updated += c.updated;
    this.totals.unchanged += c.unchanged ?? 0;
  }

  get pendingRejects(): number {
    return this.pending.length;
  }

  async flush(): Promise<void> {
    this.signal?.throwIfAborted();
    const rejects = this.pending;
    this.pending = [];
    this.totals.rejected += rejects.length;
    await addRejects(this.db, this.runId, rejects);
    await updateProgress(this.db, this.runId, {
      rowsRead: this.totals.read,
      inserted: this.totals.inserted,
      updated: this.totals.updated,
      rejected: this.totals.rejected,
      metadata: { unchanged: this.totals.unchanged },
    });
  }
}

import type { FeatureSource } from '@aplt/licensing';
import { adminFeatures } from './features.service';

export type AdminFeatures = ReturnType<typeof adminFeatures>;
type Listener = (body: AdminFeatures) => void;

interface Watched {
  listeners: Set<Listener>;
  /** What the listeners were last told: the enabled features and whether all-features mode holds. */
  signature: string;
}

const signatureOf = (body: AdminFeatures) =>
  `${body.status.all_features_mode ? '*' : ''}${body.features.join(',')}`;

/**
 * Tells listeners when a tenant's feature set changes. The license client has no change
 * callback (packages/licensing offers none), so this compares its in-memory set with what was
 * last sent, every `intervalMs`, for tenants somebody listens to. That costs no network: the
 * client itself is refreshed by the license service's push (Redis) and its own polling, so a
 * toggle reaches the listeners within a push plus one interval.
 */
export class FeatureWatch {
  private readonly watched = new Map<string, Watched>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly licenses: FeatureSource,
    private readonly intervalMs: number,
  ) {}

  /** The current body, and from now on every change of it; returns the unsubscribe. */
  subscribe(tenantId: string, listener: Listener): { current: AdminFeatures; unsubscribe: () => void } {
    const current = adminFeatures(this.licenses, tenantId);
    let entry = this.watched.get(tenantId);
    if (!entry) {
      entry = { listeners: new Set(), signature: signatureOf(current) };
      this.watched.set(tenantId, entry);
    }
    entry.listeners.add(listener);
    this.timer ??= setInterval(() => this.check(), this.intervalMs);
    const watched = entry;
    return {
      current,
      unsubscribe: () => {
        watched.listeners.delete(listener);
        if (watched.listeners.size === 0 && this.watched.get(tenantId) === watched) {
          this.watched.delete(tenantId);
        }
        if (this.watched.size === 0) this.stop();
      },
    };
  }

  get listenerCount(): number {
    let n = 0;
    for (const w of this.watched.values()) n += w.listeners.size;
    return n;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private check(): void {
    for (const [tenantId, entry] of this.watched) {
      const body = adminFeatures(this.licenses, tenantId);
      const signature = signatureOf(body);
      if (signature === entry.signature) continue;
      entry.signature = signature;
      for (const listener of entry.listeners) listener(body);
    }
  }
}

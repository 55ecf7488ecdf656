/** Forward-auth decisions counted by outcome and reason, exposed in Prometheus text format. */
export class DecisionMetrics {
  private readonly counts = new Map<string, number>();

  count(decision: 'allow' | 'deny' | 'bad_request' | 'login', reason: string): void {
    const key = `${decision}\u0000${reason}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  get(decision: string, reason: string): number {
    return this.counts.get(`${decision}\u0000${reason}`) ?? 0;
  }

  render(): string {
    const lines = [
      '# HELP access_decisions_total Forward-auth decisions by outcome and reason.',
      '# TYPE access_decisions_total counter',
    ];
    for (const [key, n] of [...this.counts].sort()) {
      const [decision, reason] = key.split('\u0000');
      lines.push(`access_decisions_total{decision="${decision}",reason="${reason}"} ${n}`);
    }
    return `${lines.join('\n')}\n`;
  }
}

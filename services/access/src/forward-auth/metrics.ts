/** Forward-auth decisions counted by outcome and reason, exposed in Prometheus text format. */
export class DecisionMetrics {
  // Per decision, per reason: no key string is built on the hot path.
  private readonly byDecision = new Map<string, Map<string, number>>();

  count(decision: 'allow' | 'deny' | 'bad_request' | 'login', reason: string): void {
    let reasons = this.byDecision.get(decision);
    if (!reasons) this.byDecision.set(decision, (reasons = new Map()));
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  }

  get(decision: string, reason: string): number {
    return this.byDecision.get(decision)?.get(reason) ?? 0;
  }

  render(): string {
    const lines = [
      '# HELP access_decisions_total Forward-auth decisions by outcome and reason.',
      '# TYPE access_decisions_total counter',
    ];
    const rows = [...this.byDecision].flatMap(([decision, reasons]) =>
      [...reasons].map(([reason, n]) => ({ decision, reason, n })),
    );
    rows.sort((a, b) => a.decision.localeCompare(b.decision) || a.reason.localeCompare(b.reason));
    for (const { decision, reason, n } of rows)
      lines.push(`access_decisions_total{decision="${decision}",reason="${reason}"} ${n}`);
    return `${lines.join('\n')}\n`;
  }
}

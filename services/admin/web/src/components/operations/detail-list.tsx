import { Text } from '@medusajs/ui';
import type { ReactNode } from 'react';

/**
 * The rows of a detail section in Medusa's style: label on the left, value on the right, one
 * row per field. Empty values show a dash.
 */
export function DetailList({ rows }: { rows: Array<{ label: string; value: ReactNode; testId?: string }> }) {
  return (
    <dl className="divide-y">
      {rows.map((r) => (
        <div key={r.label} className="text-ui-fg-subtle grid grid-cols-2 items-start gap-x-4 px-6 py-3">
          <dt>
            <Text size="small" weight="plus" leading="compact">
              {r.label}
            </Text>
          </dt>
          <dd className="min-w-0 break-words" data-testid={r.testId}>
            <Text size="small" leading="compact" as="div">
              {r.value === null || r.value === undefined || r.value === '' ? '—' : r.value}
            </Text>
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** A row of figures at the top of a detail page (balances, counts). */
export function Figures({ items }: { items: Array<{ label: string; value: ReactNode; testId?: string }> }) {
  return (
    <div className="grid grid-cols-2 gap-px md:grid-cols-4">
      {items.map((i) => (
        <div key={i.label} className="flex flex-col gap-y-1 px-6 py-4">
          <Text size="xsmall" className="text-ui-fg-muted">
            {i.label}
          </Text>
          <Text size="large" weight="plus" className="tabular-nums" data-testid={i.testId}>
            {i.value}
          </Text>
        </div>
      ))}
    </div>
  );
}

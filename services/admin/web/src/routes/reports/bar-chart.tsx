import { Text } from '@medusajs/ui';
import { useId } from 'react';

export interface Bar {
  key: string;
  label: string;
  /** The value as a number for the bar's height (amounts are shown from `display`). */
  value: number;
  display: string;
  tone?: 'default' | 'warning' | 'danger' | 'muted';
}

const tones: Record<NonNullable<Bar['tone']>, string> = {
  default: 'fill-ui-fg-interactive',
  warning: 'fill-ui-tag-orange-icon',
  danger: 'fill-ui-tag-red-icon',
  muted: 'fill-ui-fg-muted',
};

/**
 * A small bar chart drawn as SVG (no chart library: the reports chunk stays light): one bar per
 * value with its amount above and its label below, negative values below the zero line. The
 * figures are also in an accessible table for screen readers.
 */
export function BarChart({
  bars,
  title,
  height = 220,
  slot: slotWidth = 132,
  testId,
}: {
  bars: Bar[];
  title: string;
  height?: number;
  /** Room per bar in px: wide enough for its label (default fits "Meer dan 90 dagen"). */
  slot?: number;
  testId?: string;
}) {
  const id = useId();
  const width = Math.max(480, bars.length * slotWidth);
  const top = 24;
  const bottom = 28;
  const plot = height - top - bottom;
  const max = Math.max(0, ...bars.map((b) => b.value));
  const min = Math.min(0, ...bars.map((b) => b.value));
  const span = max - min || 1;
  const y = (v: number) => top + ((max - v) / span) * plot;
  const slot = width / Math.max(1, bars.length);
  const barWidth = Math.min(56, slot * 0.5);
  return (
    <figure className="flex flex-col gap-y-2" data-testid={testId}>
      <div className="overflow-x-auto">
        <svg
          role="img"
          aria-labelledby={`${id}-title`}
          viewBox={`0 0 ${width} ${height}`}
          width="100%"
          height={height}
          preserveAspectRatio="xMinYMid meet"
          className="min-w-[480px]"
          style={{ maxWidth: width }}
        >
          <title id={`${id}-title`}>{title}</title>
          <line x1={0} x2={width} y1={y(0)} y2={y(0)} className="stroke-ui-border-base" strokeWidth={1} />
          {bars.map((b, i) => {
            const x = i * slot + (slot - barWidth) / 2;
            const y0 = y(0);
            const y1 = y(b.value);
            const h = Math.max(b.value === 0 ? 0 : 1, Math.abs(y0 - y1));
            return (
              <g key={b.key} data-bar={b.key} data-value={b.value}>
                <rect
                  x={x}
                  y={Math.min(y0, y1)}
                  width={barWidth}
                  height={h}
                  rx={3}
                  className={tones[b.tone ?? 'default']}
                />
                <text
                  x={x + barWidth / 2}
                  y={b.value >= 0 ? Math.min(y0, y1) - 6 : Math.max(y0, y1) + 12}
                  textAnchor="middle"
                  className="fill-ui-fg-subtle text-[11px]"
                >
                  {b.display}
                </text>
                <text
                  x={x + barWidth / 2}
                  y={height - 8}
                  textAnchor="middle"
                  className="fill-ui-fg-muted text-[11px]"
                >
                  {b.label}
                </text>
              </g>
            );
          })}
        </svg>
      </div>
      <table className="sr-only">
        <caption>{title}</caption>
        <tbody>
          {bars.map((b) => (
            <tr key={b.key}>
              <th scope="row">{b.label}</th>
              <td>{b.display}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {bars.length === 0 && (
        <Text size="small" className="text-ui-fg-muted px-2">
          —
        </Text>
      )}
    </figure>
  );
}

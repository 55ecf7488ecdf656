import { clx, StatusBadge, Text } from '@medusajs/ui';
import { useTranslation } from 'react-i18next';
import type { Run } from '../../hooks/api/connectors';
import { useFormat } from '../../hooks/use-format';

type BadgeColor = 'green' | 'red' | 'blue' | 'orange' | 'grey' | 'purple';
const statusColor: Record<string, BadgeColor> = {
  idle: 'grey',
  queued: 'orange',
  running: 'blue',
  succeeded: 'green',
  failed: 'red',
};

/** The state of a connector, sync or run as a coloured badge. */
export function RunStatusBadge({ status }: { status: string }) {
  const { t, i18n } = useTranslation();
  const key = `run.status.${status}`;
  return (
    <StatusBadge color={statusColor[status] ?? 'grey'} data-status={status} className="whitespace-nowrap">
      {i18n.exists(key) ? (t as (k: string) => string)(key) : status}
    </StatusBadge>
  );
}

/**
 * A run's progress bar: `percent` (0-100) drawn, the phase and the measure behind it (`done` of
 * `total` in `unit`) beside it. The page polls the run while it works, so the bar moves.
 */
export function RunProgress({ run, compact = false }: { run: Run; compact?: boolean }) {
  const { t } = useTranslation();
  const f = useFormat();
  const percent = Math.max(0, Math.min(100, run.percent));
  const failed = run.status === 'failed';
  const measure =
    run.done !== null && run.unit && run.status === 'running'
      ? run.total !== null
        ? t('ops.of', {
            done: f.number(run.done),
            total: `${f.number(run.total)} ${t(`run.unit.${run.unit}`)}`,
          })
        : `${f.number(run.done)} ${t(`run.unit.${run.unit}`)}`
      : null;
  return (
    <div
      className={clx('flex min-w-[160px] flex-col gap-y-1', !compact && 'w-full')}
      data-testid="run-progress"
      data-run={run.id}
      data-percent={percent}
      data-status={run.status}
    >
      <div
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(percent)}
        aria-label={t('run.progressLabel', { percent: f.percent(percent) })}
        className="bg-ui-bg-component h-1.5 w-full overflow-hidden rounded-full"
      >
        <div
          className={clx(
            'h-full rounded-full transition-[width] duration-500 ease-out',
            failed ? 'bg-ui-tag-red-icon' : percent >= 100 ? 'bg-ui-tag-green-icon' : 'bg-ui-tag-blue-icon',
          )}
          style={{ width: `${percent}%` }}
        />
      </div>
      <div className="flex items-center justify-between gap-x-2">
        <Text size="xsmall" className="text-ui-fg-subtle" leading="compact">
          {t(`run.phase.${run.phase}`)}
          {measure && !compact ? ` · ${measure}` : ''}
        </Text>
        <Text
          size="xsmall"
          className="text-ui-fg-subtle tabular-nums"
          leading="compact"
          data-testid="run-percent"
        >
          {f.percent(percent)}
        </Text>
      </div>
    </div>
  );
}

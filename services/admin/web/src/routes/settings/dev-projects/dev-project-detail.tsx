import { ArrowPath } from '@medusajs/icons';
import { Badge, Button, clx, Table, Text, toast } from '@medusajs/ui';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { EmptyState } from '../../../components/common/empty-state';
import { ErrorAlert } from '../../../components/common/error-alert';
import { ErrorPanel } from '../../../components/common/error-boundary';
import { SectionSpinner } from '../../../components/common/full-page-spinner';
import { Page, PageSection } from '../../../components/layout/page';
import { DetailList } from '../../../components/operations/detail-list';
import {
  type Deployment,
  useDevProjectCommits,
  useDevProjectDiff,
  useDevProjectStatus,
  useRebuildDevProject,
} from '../../../hooks/api/dev-projects';
import { useTenant } from '../../../hooks/api/tenant';
import { useFormat } from '../../../hooks/use-format';
import { DevProjectStatusBadge } from './dev-project-list';

function Commits({ id }: { id: number }) {
  const { t } = useTranslation();
  const f = useFormat();
  const commits = useDevProjectCommits(id);
  if (commits.isPending) return <SectionSpinner />;
  if (commits.isError)
    return <ErrorAlert error={commits.error} onRetry={() => void commits.refetch()} className="m-6" />;
  if (commits.data.commits.length === 0) return <EmptyState title={t('devProjects.noCommits')} />;
  return (
    <Table data-testid="commit-table">
      <Table.Header>
        <Table.Row>
          <Table.HeaderCell>SHA</Table.HeaderCell>
          <Table.HeaderCell>{t('devProjects.subject')}</Table.HeaderCell>
          <Table.HeaderCell>{t('devProjects.author')}</Table.HeaderCell>
          <Table.HeaderCell>{t('devProjects.date')}</Table.HeaderCell>
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {commits.data.commits.map((c) => (
          <Table.Row key={c.sha}>
            <Table.Cell className="font-mono" title={c.sha}>
              {c.sha.slice(0, 10)}
            </Table.Cell>
            <Table.Cell className="whitespace-normal">{c.subject}</Table.Cell>
            <Table.Cell>{c.author}</Table.Cell>
            <Table.Cell>{f.date(c.date, 'datetime')}</Table.Cell>
          </Table.Row>
        ))}
      </Table.Body>
    </Table>
  );
}

/** The unified diff, coloured per line like a code review. */
function Patch({ patch }: { patch: string }) {
  return (
    <pre
      className="bg-ui-bg-subtle max-h-[560px] overflow-auto px-0 py-2 font-mono text-xs"
      data-testid="diff-patch"
    >
      {patch.split('\n').map((line, i) => (
        <div
          key={i}
          className={clx(
            'px-6 whitespace-pre',
            line.startsWith('+') && !line.startsWith('+++') && 'bg-ui-tag-green-bg text-ui-tag-green-text',
            line.startsWith('-') && !line.startsWith('---') && 'bg-ui-tag-red-bg text-ui-tag-red-text',
            line.startsWith('@@') && 'text-ui-tag-blue-text',
            (line.startsWith('diff ') || line.startsWith('index ')) && 'text-ui-fg-muted',
          )}
        >
          {line || ' '}
        </div>
      ))}
    </pre>
  );
}

function Diff({ id }: { id: number }) {
  const { t } = useTranslation();
  const diff = useDevProjectDiff(id);
  if (diff.isPending) return <SectionSpinner />;
  if (diff.isError)
    return <ErrorAlert error={diff.error} onRetry={() => void diff.refetch()} className="m-6" />;
  if (diff.data.files.length === 0) return <EmptyState title={t('devProjects.noDiff')} />;
  return (
    <div className="flex flex-col divide-y">
      <Table data-testid="diff-files">
        <Table.Header>
          <Table.Row>
            <Table.HeaderCell>{t('devProjects.files')}</Table.HeaderCell>
            <Table.HeaderCell>{t('ops.status')}</Table.HeaderCell>
            <Table.HeaderCell className="text-right">{t('devProjects.additions')}</Table.HeaderCell>
            <Table.HeaderCell className="text-right">{t('devProjects.deletions')}</Table.HeaderCell>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {diff.data.files.map((file) => (
            <Table.Row key={file.path}>
              <Table.Cell className="font-mono">{file.path}</Table.Cell>
              <Table.Cell>
                <Badge size="2xsmall">{file.status}</Badge>
              </Table.Cell>
              <Table.Cell className="text-ui-tag-green-text text-right tabular-nums">
                +{file.additions ?? '–'}
              </Table.Cell>
              <Table.Cell className="text-ui-tag-red-text text-right tabular-nums">
                −{file.deletions ?? '–'}
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table>
      <Patch patch={diff.data.patch} />
    </div>
  );
}

const deploymentColor = {
  started: 'blue',
  succeeded: 'green',
  failed: 'red',
  rolled_back: 'orange',
} as const;

function Deployments({ deployments }: { deployments: Deployment[] }) {
  const { t } = useTranslation();
  const f = useFormat();
  const [open, setOpen] = useState<number | null>(deployments[0]?.id ?? null);
  if (deployments.length === 0) return <EmptyState title={t('devProjects.noDeployments')} />;
  const shown = deployments.find((d) => d.id === open) ?? deployments[0]!;
  return (
    <div className="grid grid-cols-1 divide-y md:grid-cols-[320px_1fr] md:divide-x md:divide-y-0">
      <ul className="flex flex-col" aria-label={t('devProjects.deployments')}>
        {deployments.map((d) => (
          <li key={d.id}>
            <button
              type="button"
              onClick={() => setOpen(d.id)}
              aria-current={d.id === shown.id}
              className={clx(
                'hover:bg-ui-bg-base-hover focus-visible:bg-ui-bg-base-hover flex w-full flex-col gap-y-1 px-6 py-3 text-left outline-none',
                d.id === shown.id && 'bg-ui-bg-subtle',
              )}
              data-deployment={d.id}
              data-status={d.status}
            >
              <span className="flex items-center gap-x-2">
                <Badge size="2xsmall" color={deploymentColor[d.status]}>
                  {t(`devProjects.deploymentStatus.${d.status}`)}
                </Badge>
                <Text size="small" className="font-mono">
                  {d.version ?? '—'}
                </Text>
              </span>
              <Text size="xsmall" className="text-ui-fg-muted">
                {f.date(d.started_at, 'datetime')} · {d.environment ?? '—'} ·{' '}
                {d.commit_sha?.slice(0, 10) ?? '—'}
              </Text>
            </button>
          </li>
        ))}
      </ul>
      <div className="flex min-w-0 flex-col">
        <Text size="small" weight="plus" className="px-6 pt-4">
          {t('devProjects.log')}
          {shown.message ? ` · ${shown.message}` : ''}
        </Text>
        <pre
          className="bg-ui-bg-subtle m-4 max-h-[420px] overflow-auto rounded-md p-4 font-mono text-xs"
          data-testid="deployment-log"
        >
          {shown.log || t('devProjects.logEmpty')}
        </pre>
      </div>
    </div>
  );
}

/** One dev project: its data, commits, diff against main, builds with their log, and rebuild. */
export function DevProjectView({ id }: { id: number }) {
  const { t } = useTranslation();
  const f = useFormat();
  const status = useDevProjectStatus(id);
  const rebuild = useRebuildDevProject(id);
  const tenant = useTenant();
  if (status.isPending) return <SectionSpinner />;
  if (status.isError) return <ErrorPanel error={status.error} onRetry={() => void status.refetch()} />;
  const { dev_project: p, git, deployments, changelog } = status.data;
  const building = deployments.some((d) => d.status === 'started');
  return (
    <Page
      title={`${p.project_code} · ${p.name}`}
      description={p.description ?? undefined}
      testId="dev-project-detail"
      actions={
        <>
          <Button size="small" variant="transparent" asChild>
            <Link to="/settings/dev-projects">{t('devProjects.backToList')}</Link>
          </Button>
          <Button
            size="small"
            variant="secondary"
            disabled={building || !tenant.data}
            isLoading={rebuild.isPending}
            title={t('devProjects.rebuildHint')}
            onClick={() =>
              rebuild.mutate(tenant.data!.tenant.id, {
                onSuccess: () => toast.success(t('devProjects.rebuildStarted', { code: p.project_code })),
              })
            }
            data-testid="rebuild"
          >
            <ArrowPath />
            {t('devProjects.rebuild')}
          </Button>
        </>
      }
      sections={
        <>
          <PageSection title={t('devProjects.commits')}>
            <Commits id={id} />
          </PageSection>
          <PageSection title={t('devProjects.diff')}>
            <Diff id={id} />
          </PageSection>
          <PageSection title={t('devProjects.deployments')}>
            <Deployments deployments={deployments} />
          </PageSection>
          <PageSection title={t('devProjects.changelog')}>
            <Table>
              <Table.Body>
                {changelog.map((c) => (
                  <Table.Row key={c.id}>
                    <Table.Cell className="w-[180px]">{f.date(c.created_at, 'datetime')}</Table.Cell>
                    <Table.Cell>
                      <Badge size="2xsmall">{c.action}</Badge>
                    </Table.Cell>
                    <Table.Cell className="whitespace-normal">{c.description ?? ''}</Table.Cell>
                    <Table.Cell>{c.changed_by ?? ''}</Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table>
          </PageSection>
        </>
      }
    >
      {rebuild.error ? (
        <div className="px-6 py-3">
          <ErrorAlert error={rebuild.error} />
        </div>
      ) : null}
      <DetailList
        rows={[
          {
            label: t('ops.status'),
            value: <DevProjectStatusBadge status={p.status} />,
            testId: 'dev-project-status',
          },
          { label: t('devProjects.version'), value: <span className="font-mono">{p.version}</span> },
          {
            label: t('devProjects.branch'),
            value: (
              <span className="flex flex-col">
                <span className="font-mono">{git.branch}</span>
                <span className="text-ui-fg-muted">
                  {t('devProjects.aheadBehind', { ahead: String(git.ahead), behind: String(git.behind) })}
                </span>
              </span>
            ),
          },
          { label: t('devProjects.type'), value: p.project_type },
          { label: t('devProjects.priority'), value: p.priority },
          { label: t('devProjects.ticket'), value: p.ticket_number },
          { label: t('devProjects.assignedTo'), value: p.assigned_to },
          { label: t('devProjects.targetDate'), value: p.target_date ? f.date(p.target_date) : null },
          { label: t('ops.updatedAt'), value: f.date(p.updated_at, 'datetime') },
        ]}
      />
    </Page>
  );
}

/** /app/settings/dev-projects/:id */
export function Component() {
  const { id = '' } = useParams();
  const n = Number(id);
  if (!Number.isInteger(n) || n <= 0) return <ErrorPanel error={new Error(`No project ${id}`)} />;
  return <DevProjectView id={n} />;
}

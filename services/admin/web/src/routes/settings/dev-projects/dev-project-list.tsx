import { Alert, Badge, StatusBadge, Text } from '@medusajs/ui';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { ErrorPanel } from '../../../components/common/error-boundary';
import { SectionSpinner } from '../../../components/common/full-page-spinner';
import { Page } from '../../../components/layout/page';
import { DataTable, type DataTableColumn } from '../../../components/table/data-table';
import { useDataTableQuery } from '../../../components/table/use-data-table-query';
import {
  type DevProject,
  devProjectStatuses,
  useDevProjectByCode,
  useDevProjects,
} from '../../../hooks/api/dev-projects';
import { isFetchError } from '../../../lib/api-error';
import { useFormat } from '../../../hooks/use-format';
import { DevProjectView } from './dev-project-detail';

const statusColor = { draft: 'grey', in_progress: 'blue', testing: 'orange', deployed: 'green' } as const;

export function DevProjectStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  const known = (devProjectStatuses as readonly string[]).includes(status);
  return (
    <StatusBadge
      color={known ? statusColor[status as keyof typeof statusColor] : 'grey'}
      data-status={status}
    >
      {known ? t(`devProjects.statuses.${status as keyof typeof statusColor}`) : status}
    </StatusBadge>
  );
}

/** The portal's deep link `?code=`: the project with that code, opened in place. */
function ByCode({ code }: { code: string }) {
  const { t } = useTranslation();
  const project = useDevProjectByCode(code);
  if (project.isPending) return <SectionSpinner />;
  if (project.isError) {
    if (isFetchError(project.error) && project.error.status === 404)
      return (
        <Alert variant="warning" data-testid="dev-project-missing">
          {t('devProjects.notFound', { code })}
        </Alert>
      );
    return <ErrorPanel error={project.error} onRetry={() => void project.refetch()} />;
  }
  return <DevProjectView id={project.data.dev_project.id} />;
}

function ProjectList() {
  const { t } = useTranslation();
  const f = useFormat();
  const navigate = useNavigate();
  const query = useDataTableQuery<'status'>({ pageSize: 20, filterKeys: ['status'] });
  const list = useDevProjects({
    limit: query.pageSize,
    offset: query.offset,
    ...(query.filters.status ? { status: query.filters.status } : {}),
  });
  const columns: DataTableColumn<DevProject>[] = [
    { id: 'code', header: 'Code', cell: (p) => <span className="font-mono">{p.project_code}</span> },
    {
      id: 'name',
      header: t('devProjects.project'),
      cell: (p) => (
        <Text size="small" weight="plus" leading="compact">
          {p.name}
        </Text>
      ),
    },
    {
      id: 'type',
      header: t('devProjects.type'),
      cell: (p) => <Badge size="2xsmall">{p.project_type}</Badge>,
    },
    { id: 'status', header: t('ops.status'), cell: (p) => <DevProjectStatusBadge status={p.status} /> },
    {
      id: 'version',
      header: t('devProjects.version'),
      cell: (p) => <span className="font-mono">{p.version}</span>,
    },
    { id: 'ticket', header: t('devProjects.ticket'), cell: (p) => p.ticket_number ?? '—' },
    { id: 'updated', header: t('ops.updatedAt'), cell: (p) => f.date(p.updated_at, 'datetime') },
  ];
  return (
    <Page
      title={t('nav.items.devProjects')}
      description={t('devProjects.description')}
      testId="dev-project-list"
    >
      <DataTable<DevProject, 'status'>
        columns={columns}
        rows={list.data?.dev_projects}
        count={list.data?.count}
        isLoading={list.isPending}
        error={list.error}
        onRetry={() => void list.refetch()}
        rowKey={(p) => p.id}
        onRowOpen={(p) => void navigate(String(p.id))}
        query={query}
        search={false}
        filters={[
          {
            key: 'status',
            label: t('ops.status'),
            options: devProjectStatuses.map((s) => ({ value: s, label: t(`devProjects.statuses.${s}`) })),
          },
        ]}
        testId="dev-project-table"
      />
    </Page>
  );
}

/**
 * /app/settings/dev-projects: the projects; with `?code=` (the portal's deep link) the project
 * with that code opens here.
 */
export function Component() {
  const { t } = useTranslation();
  const code = useSearchParams()[0].get('code');
  return (
    <div className="flex flex-col gap-y-3" data-testid="dev-projects" data-code={code ?? ''}>
      {code ? (
        <>
          <Alert variant="info">{t('devProjects.deepLink', { code })}</Alert>
          <ByCode code={code} />
        </>
      ) : (
        <ProjectList />
      )}
    </div>
  );
}

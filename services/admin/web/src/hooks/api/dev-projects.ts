import { queryKeysFactory } from '../../lib/query-key-factory';
import { adminFetch, useAdminMutation, useAdminQuery } from './use-admin-query';

/** Dev projects (`/admin/dev-projects/*`, devprojects service, no license feature). */
export const devProjectStatuses = ['draft', 'in_progress', 'testing', 'deployed'] as const;
export interface DevProject {
  id: number;
  project_code: string;
  name: string;
  description: string | null;
  project_type: string;
  status: string;
  priority: string;
  version: string;
  branch_name: string;
  assigned_to: string | null;
  target_date: string | null;
  ticket_number: string | null;
  ticket_id: number | null;
  tenant: string | null;
  created_by: string | null;
  deployed_at: string | null;
  created_at: string;
  updated_at: string;
}
export interface Deployment {
  id: number;
  environment: string | null;
  version: string | null;
  commit_sha: string | null;
  status: 'started' | 'succeeded' | 'failed' | 'rolled_back';
  message: string | null;
  log: string | null;
  started_by: string | null;
  started_at: string;
  finished_at: string | null;
}
export interface DevProjectStatusView {
  dev_project: DevProject;
  allowed_moves: string[];
  git: {
    branch: string;
    head: string;
    ahead: number;
    behind: number;
    last_commit: { sha: string; author: string; date: string; subject: string };
  };
  files: Array<{ file_path: string; change_type: string }>;
  changelog: Array<{
    id: number;
    action: string;
    description: string | null;
    changed_by: string | null;
    created_at: string;
  }>;
  deployments: Deployment[];
}
export interface DevProjectDiff {
  project_id: number;
  branch: string;
  base: string;
  head: string;
  files: Array<{ path: string; status: string; additions: number | null; deletions: number | null }>;
  patch: string;
}
export interface DevProjectCommit {
  sha: string;
  author: string;
  date: string;
  subject: string;
}

export const devProjectsQueryKeys = queryKeysFactory('dev-projects');

export const useDevProjects = (query: { limit: number; offset: number; status?: string }) =>
  useAdminQuery<{ dev_projects: DevProject[]; count: number; limit: number; offset: number }>(
    '/admin/dev-projects',
    query,
    { queryKey: devProjectsQueryKeys.list(query), placeholderData: (previous) => previous },
  );

/** One project by its code (the portal's deep link names the code). */
export const useDevProjectByCode = (code: string | null) =>
  useAdminQuery<{ dev_project: DevProject }>(
    '/admin/dev-projects',
    { code: code ?? '' },
    {
      queryKey: devProjectsQueryKeys.detail(`code:${code ?? ''}`),
      enabled: Boolean(code),
    },
  );

const hasRunningDeployment = (d?: DevProjectStatusView) =>
  Boolean(d?.deployments.some((x) => x.status === 'started'));

export const useDevProjectStatus = (id: number | null) =>
  useAdminQuery<DevProjectStatusView>(
    '/admin/dev-projects/status',
    { project_id: id ?? 0 },
    {
      queryKey: devProjectsQueryKeys.detail(id ?? 0, { view: 'status' }),
      enabled: id !== null,
      // A rebuild runs in the background: follow its log until it is closed.
      refetchInterval: (q) => (hasRunningDeployment(q.state.data) ? 1000 : false),
    },
  );

export const useDevProjectDiff = (id: number | null) =>
  useAdminQuery<DevProjectDiff>(
    '/admin/dev-projects/diff',
    { project_id: id ?? 0 },
    {
      queryKey: devProjectsQueryKeys.detail(id ?? 0, { view: 'diff' }),
      enabled: id !== null,
    },
  );

export const useDevProjectCommits = (id: number | null) =>
  useAdminQuery<{ project_id: number; branch: string; commits: DevProjectCommit[] }>(
    '/admin/dev-projects/commits',
    { project_id: id ?? 0 },
    { queryKey: devProjectsQueryKeys.detail(id ?? 0, { view: 'commits' }), enabled: id !== null },
  );

export const useRebuildDevProject = (id: number) =>
  useAdminMutation(
    (tenant: string) =>
      adminFetch<{ deployment: Deployment; job_id: string; status: 'testing' }>(
        '/admin/dev-projects/rebuild',
        'POST',
        {
          project_id: id,
          tenant,
        },
      ),
    { invalidates: [devProjectsQueryKeys.all] },
  );

import type { ProjectStatus } from './project.repository';

/**
 * Versions are major.minor.patch.build. A commit adds one to build; a successful deployment
 * adds one to patch and keeps build (so a build number is never reused inside a project).
 * Major and minor are for people to set; nothing here moves them.
 */
export function bumpVersion(version: string, part: 'patch' | 'build'): string {
  const [major = 0, minor = 0, patch = 0, build = 0] = version.split('.').map(Number);
  return part === 'build'
    ? `${major}.${minor}.${patch}.${build + 1}`
    : `${major}.${minor}.${patch + 1}.${build}`;
}

/**
 * Status moves. A project starts as draft; its first commit makes it in_progress; a rebuild
 * request moves it to testing; the rebuild worker's success moves it to deployed and its failure
 * back to in_progress; a new commit on a testing or deployed project reopens it (in_progress).
 */
export const statusMoves: Record<ProjectStatus, ProjectStatus[]> = {
  draft: ['in_progress'],
  in_progress: ['testing'],
  testing: ['deployed', 'in_progress'],
  deployed: ['in_progress', 'testing'],
};

export type StatusEvent = 'commit' | 'rebuild_requested' | 'rebuild_succeeded' | 'rebuild_failed';

/** The status after an event, or null when the event is not allowed in the current status. */
export function nextStatus(current: ProjectStatus, event: StatusEvent): ProjectStatus | null {
  switch (event) {
    case 'commit':
      return 'in_progress';
    case 'rebuild_requested':
      return current === 'draft' ? null : 'testing';
    case 'rebuild_succeeded':
      return current === 'testing' ? 'deployed' : null;
    case 'rebuild_failed':
      return current === 'testing' ? 'in_progress' : null;
  }
}

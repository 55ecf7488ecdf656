import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Config } from '../config';
import { type BotIdentity, GitRepository } from './git-repository';

/**
 * One bare repository per tenant under the configured directory (<dir>/<tenant>.git): project
 * codes come from each tenant's own sequence, so two tenants' DP-0001 must never share a branch.
 */
export class GitRepositories {
  private readonly repos = new Map<string, GitRepository>();

  constructor(
    readonly root: string,
    private readonly bot: BotIdentity,
  ) {}

  for(tenantId: string): GitRepository {
    if (!/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(tenantId))
      throw new Error(`Unsafe tenant id for a path: ${tenantId}`);
    let repo = this.repos.get(tenantId);
    if (!repo) {
      repo = new GitRepository(join(this.root, `${tenantId}.git`), this.bot);
      this.repos.set(tenantId, repo);
    }
    return repo;
  }

  async ensureRoot(): Promise<void> {
    await mkdir(this.root, { recursive: true });
  }

  version(): Promise<string> {
    return GitRepository.gitVersion();
  }
}

export function gitRepositoriesFromConfig(config: Config): GitRepositories {
  return new GitRepositories(resolve(config.DEVPROJECTS_GIT_DIR), {
    name: config.DEVPROJECTS_BOT_NAME,
    email: config.DEVPROJECTS_BOT_EMAIL,
  });
}

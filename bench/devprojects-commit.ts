// Bot commits to many dev-project branches: the service's plumbing path (temporary index,
// commit-tree, compare-and-swap update-ref; no checkout) run concurrently, beside the baseline a
// naive implementation would use: one shared working tree, checkout + add + commit per change,
// serialised because a working tree can only be on one branch at a time.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { GitRepository } from '@aplt/service-devprojects/git';

const exec = promisify(execFile);
const BRANCHES = Number(process.env.BRANCHES ?? 8);
const COMMITS = Number(process.env.COMMITS ?? 10);
const bot = { name: 'Bench Bot', email: 'bench@aplt.localhost' };
const gitEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: bot.name,
  GIT_AUTHOR_EMAIL: bot.email,
  GIT_COMMITTER_NAME: bot.name,
  GIT_COMMITTER_EMAIL: bot.email,
  GIT_CONFIG_GLOBAL: '/dev/null',
};
const root = mkdtempSync(join(tmpdir(), 'devprojects-bench-'));
try {
  // Ours: concurrent plumbing commits, one in flight per branch.
  const repo = new GitRepository(join(root, 'bare.git'), bot);
  await repo.ensure();
  for (let b = 0; b < BRANCHES; b++) await repo.createBranch(`dev-project/B${b}`);
  let t = performance.now();
  await Promise.all(
    Array.from({ length: BRANCHES }, async (_, b) => {
      for (let c = 0; c < COMMITS; c++)
        await repo.commit(`dev-project/B${b}`, `change ${c}`, [
          { path: `src/file-${c}.ts`, content: Buffer.from(`export const v = ${c};\n`) },
        ]);
    }),
  );
  const ours = performance.now() - t;

  // Baseline: a working tree, checkout + add + commit, one at a time.
  const wt = join(root, 'worktree');
  const git = (...args: string[]) => exec('git', ['-C', wt, ...args], { env: gitEnv });
  await exec('git', ['init', '-q', '-b', 'main', wt], { env: gitEnv });
  await git('commit', '-q', '--allow-empty', '-m', 'Initial commit');
  for (let b = 0; b < BRANCHES; b++) await git('branch', `dev-project/B${b}`);
  t = performance.now();
  for (let b = 0; b < BRANCHES; b++) {
    for (let c = 0; c < COMMITS; c++) {
      await git('checkout', '-q', `dev-project/B${b}`);
      writeFileSync(join(wt, `file-${c}.ts`), `export const v = ${c};\n`);
      await git('add', '-A');
      await git('commit', '-q', '-m', `change ${c}`);
    }
  }
  const baseline = performance.now() - t;

  const total = BRANCHES * COMMITS;
  console.log(`devprojects commits: ${total} commits over ${BRANCHES} branches`);
  console.log(
    `  plumbing, concurrent (service):      ${(total / (ours / 1000)).toFixed(1)} commits/s (${ours.toFixed(0)} ms)`,
  );
  console.log(
    `  worktree checkout+commit (baseline): ${(total / (baseline / 1000)).toFixed(1)} commits/s (${baseline.toFixed(0)} ms)`,
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}

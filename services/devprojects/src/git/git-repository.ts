import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface BotIdentity {
  name: string;
  email: string;
}

export class GitError extends Error {
  constructor(
    message: string,
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(message);
    this.name = 'GitError';
  }
}

/** A file change written by commit(): content as bytes, or null to delete the path. */
export interface FileWrite {
  path: string;
  content: Buffer | null;
}

export interface TreeEntry {
  name: string;
  path: string;
  type: 'blob' | 'tree' | 'commit';
  size: number | null;
}

export interface DiffFile {
  path: string;
  status: string;
  additions: number | null;
  deletions: number | null;
}

const MAIN = 'main';
const ZERO_SHA = '0'.repeat(40);

/**
 * A bare git repository driven through plumbing commands (execFile-style, no shell). No working
 * tree is ever checked out: commits are built in a private temporary index (GIT_INDEX_FILE) and
 * the branch ref moves with a compare-and-swap update-ref, so commits to different branches run
 * concurrently and a lost race on one branch is reported instead of overwriting.
 */
export class GitRepository {
  private ready: Promise<void> | undefined;

  constructor(
    readonly dir: string,
    private readonly bot: BotIdentity,
  ) {}

  /** git init --bare + an initial empty commit on main, when the repository does not exist yet. */
  ensure(): Promise<void> {
    this.ready ??= this.init().catch((err: unknown) => {
      this.ready = undefined;
      throw err;
    });
    return this.ready;
  }

  private async init(): Promise<void> {
    const exists = await stat(join(this.dir, 'HEAD')).then(
      () => true,
      () => false,
    );
    if (!exists) {
      await mkdir(dirname(this.dir), { recursive: true });
      await run(['init', '--bare', '--quiet', '--initial-branch', MAIN, this.dir], {});
    }
    if (await this.resolve(MAIN)) return;
    const emptyTree = (await this.git(['mktree'], { input: '' })).trim();
    const commit = await this.commitTree(emptyTree, [], 'Initial commit');
    // '' as old value: only create main if nobody else did meanwhile.
    await this.git(['update-ref', `refs/heads/${MAIN}`, commit, '']).catch(async (err: unknown) => {
      if (!(await this.resolve(MAIN))) throw err;
    });
  }

  /** The commit a branch points at, or null when it does not exist. */
  async resolve(branch: string): Promise<string | null> {
    try {
      return (await this.git(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`])).trim();
    } catch (err) {
      if (err instanceof GitError && err.exitCode === 1) return null;
      throw err;
    }
  }

  /** Creates `branch` at main's tip; false when it already exists. */
  async createBranch(branch: string): Promise<{ created: boolean; head: string }> {
    await this.ensure();
    await this.git(['check-ref-format', `refs/heads/${branch}`]);
    const existing = await this.resolve(branch);
    if (existing) return { created: false, head: existing };
    const base = (await this.resolve(MAIN)) as string;
    try {
      await this.git(['update-ref', `refs/heads/${branch}`, base, '']);
      return { created: true, head: base };
    } catch (err) {
      const now = await this.resolve(branch);
      if (now) return { created: false, head: now };
      throw err;
    }
  }

  /**
   * Commits `files` on top of the branch tip. Returns null when the tree would not change.
   * Throws BranchMovedError when another commit moved the branch while this one was built.
   */
  async commit(branch: string, message: string, files: FileWrite[]): Promise<string | null> {
    await this.ensure();
    // One process for both the tip and its tree (each git process costs a fork + exec).
    const tip = await this.git([
      'rev-parse',
      `refs/heads/${branch}^{commit}`,
      `refs/heads/${branch}^{tree}`,
    ]).catch(async (err: unknown) => {
      if (!(await this.resolve(branch))) throw new BranchMissingError(branch);
      throw err;
    });
    const [parent = '', parentTree = ''] = tip.trim().split('\n');
    const dir = await mkdtemp(join(tmpdir(), 'devprojects-index-'));
    try {
      const env = { GIT_INDEX_FILE: join(dir, 'index') };
      await this.git(['read-tree', parent], { env });
      // --index-info takes "<mode> <sha>\t<path>" lines; mode 0 removes the path. Unlike
      // --force-remove it needs no work tree.
      const lines = await Promise.all(
        files.map(async (file) => {
          if (file.content === null) return `0 ${ZERO_SHA}\t${file.path}`;
          const blob = (await this.git(['hash-object', '-w', '--stdin'], { input: file.content })).trim();
          return `100644 ${blob}\t${file.path}`;
        }),
      );
      if (lines.length)
        await this.git(['update-index', '--index-info'], { env, input: `${lines.join('\n')}\n` });
      const tree = (await this.git(['write-tree'], { env })).trim();
      if (tree === parentTree) return null;
      const commit = await this.commitTree(tree, [parent], message);
      try {
        await this.git([
          'update-ref',
          '-m',
          `devprojects: ${message}`,
          `refs/heads/${branch}`,
          commit,
          parent,
        ]);
      } catch (err) {
        if ((await this.resolve(branch)) !== parent) throw new BranchMovedError(branch);
        throw err;
      }
      return commit;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** Files changed on the branch since it left main (three-dot semantics), with the patch. */
  async diff(branch: string): Promise<{ base: string; head: string; files: DiffFile[]; patch: string }> {
    const head = await this.mustResolve(branch);
    const base = (await this.git(['merge-base', `refs/heads/${MAIN}`, head])).trim();
    const statusOut = await this.git(['diff', '--no-color', '--no-renames', '--name-status', base, head]);
    const numstatOut = await this.git(['diff', '--no-color', '--no-renames', '--numstat', base, head]);
    const counts = new Map<string, [number | null, number | null]>();
    for (const line of numstatOut.split('\n').filter(Boolean)) {
      const [add, del, ...rest] = line.split('\t');
      counts.set(rest.join('\t'), [add === '-' ? null : Number(add), del === '-' ? null : Number(del)]);
    }
    const files = statusOut
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [code, ...rest] = line.split('\t');
        const path = rest.join('\t');
        const [additions, deletions] = counts.get(path) ?? [null, null];
        return { path, status: statusWord(code ?? ''), additions, deletions };
      });
    const patch = await this.git(['diff', '--no-color', '--no-renames', base, head]);
    return { base, head, files, patch };
  }

  /** The branch's own commits (since it left main), newest first, at most `limit`. */
  async log(
    branch: string,
    limit: number,
  ): Promise<Array<{ sha: string; author: string; date: string; subject: string }>> {
    const head = await this.mustResolve(branch);
    const out = await this.git([
      'log',
      `--max-count=${limit}`,
      '--format=%H%x00%an%x00%aI%x00%s%x1e',
      head,
      '--not',
      `refs/heads/${MAIN}`,
    ]);
    return out
      .split('\x1e')
      .map((record) => record.trim())
      .filter(Boolean)
      .map((record) => {
        const [sha = '', author = '', date = '', subject = ''] = record.split('\0');
        return { sha, author, date, subject };
      });
  }

  /** Directory listing or file content at `path` on the branch tip. */
  async browse(
    branch: string,
    path: string,
  ): Promise<
    | { type: 'tree'; entries: TreeEntry[] }
    | { type: 'blob'; size: number; content: string; encoding: 'utf8' | 'base64' }
    | null
  > {
    const head = await this.mustResolve(branch);
    const spec = `${head}:${path}`;
    let type: string;
    try {
      type = (await this.git(['cat-file', '-t', spec])).trim();
    } catch (err) {
      if (err instanceof GitError) return null;
      throw err;
    }
    if (type === 'blob') {
      const bytes = await this.gitBytes(['cat-file', 'blob', spec]);
      const text = bytes.toString('utf8');
      const isText = !bytes.includes(0) && Buffer.from(text, 'utf8').equals(bytes);
      return {
        type: 'blob',
        size: bytes.length,
        content: isText ? text : bytes.toString('base64'),
        encoding: isText ? 'utf8' : 'base64',
      };
    }
    const out = await this.git(['ls-tree', '-l', '-z', spec]);
    const prefix = path ? `${path.replace(/\/$/, '')}/` : '';
    const entries = out
      .split('\0')
      .filter(Boolean)
      .map((record) => {
        const [meta, name = ''] = record.split('\t');
        const [, objType, , size] = (meta ?? '').split(/\s+/);
        return {
          name,
          path: `${prefix}${name}`,
          type: objType as TreeEntry['type'],
          size: size && size !== '-' ? Number(size) : null,
        };
      });
    return { type: 'tree', entries };
  }

  /** Tip, commits ahead of/behind main and the last commit of the branch. */
  async status(branch: string) {
    const head = await this.mustResolve(branch);
    const counts = (await this.git(['rev-list', '--left-right', '--count', `refs/heads/${MAIN}...${head}`]))
      .trim()
      .split(/\s+/);
    const [sha, author, date, subject] = (
      await this.git(['log', '-1', '--format=%H%x00%an%x00%aI%x00%s', head])
    )
      .trim()
      .split('\0');
    return {
      head,
      behind: Number(counts[0]),
      ahead: Number(counts[1]),
      last_commit: { sha: sha ?? head, author: author ?? '', date: date ?? '', subject: subject ?? '' },
    };
  }

  /** Every file path in a commit's tree (the commit must exist). */
  async browseAll(commit: string): Promise<string[]> {
    await this.ensure();
    const out = await this.git(['ls-tree', '-r', '--name-only', '-z', `${commit}^{commit}`]);
    return out.split('\0').filter(Boolean);
  }

  /**
   * Writes a commit's tree into `dir` (an existing, empty directory): `git archive` piped into
   * `tar -x`, so no work tree or index of the bare repository is involved and each build gets a
   * fresh copy. The commit must exist (GitError otherwise).
   */
  async exportTree(commit: string, dir: string): Promise<void> {
    await this.ensure();
    const sha = (await this.git(['rev-parse', '--verify', '--quiet', `${commit}^{commit}`])).trim();
    await new Promise<void>((resolve, reject) => {
      const git = spawn('git', ['--git-dir', this.dir, 'archive', '--format=tar', sha], {
        env: gitEnv(),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const tar = spawn('tar', ['-x', '--no-same-owner', '-C', dir], {
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' },
        stdio: ['pipe', 'ignore', 'pipe'],
      });
      const errs: string[] = [];
      git.stderr.on('data', (c: Buffer) => errs.push(c.toString('utf8')));
      tar.stderr.on('data', (c: Buffer) => errs.push(c.toString('utf8')));
      git.stdout.pipe(tar.stdin);
      tar.stdin.on('error', () => {});
      let pending = 2;
      let failed: string | null = null;
      const done = (what: string) => (code: number | null) => {
        if (code !== 0) failed ??= `${what} exited with ${code}`;
        if (--pending > 0) return;
        if (failed)
          reject(
            new GitError(`export of ${sha} failed: ${failed}: ${errs.join('').trim()}`, code, errs.join('')),
          );
        else resolve();
      };
      git.once('error', reject);
      tar.once('error', reject);
      git.once('close', done('git archive'));
      tar.once('close', done('tar'));
    });
  }

  static async gitVersion(): Promise<string> {
    return (await run(['--version'], {})).trim();
  }

  private async mustResolve(branch: string): Promise<string> {
    await this.ensure();
    const head = await this.resolve(branch);
    if (!head) throw new BranchMissingError(branch);
    return head;
  }

  private async commitTree(tree: string, parents: string[], message: string): Promise<string> {
    const args = ['commit-tree', tree, ...parents.flatMap((p) => ['-p', p]), '-m', message];
    return (await this.git(args)).trim();
  }

  private git(args: string[], opts: RunOpts = {}): Promise<string> {
    return this.gitBytes(args, opts).then((b) => b.toString('utf8'));
  }

  private gitBytes(args: string[], opts: RunOpts = {}): Promise<Buffer> {
    return runBytes(['--git-dir', this.dir, ...args], {
      ...opts,
      env: {
        GIT_AUTHOR_NAME: this.bot.name,
        GIT_AUTHOR_EMAIL: this.bot.email,
        GIT_COMMITTER_NAME: this.bot.name,
        GIT_COMMITTER_EMAIL: this.bot.email,
        ...opts.env,
      },
    });
  }
}

export class BranchMissingError extends Error {
  constructor(readonly branch: string) {
    super(`Branch ${branch} does not exist in the repository`);
    this.name = 'BranchMissingError';
  }
}

export class BranchMovedError extends Error {
  constructor(readonly branch: string) {
    super(`Branch ${branch} moved while committing; retry`);
    this.name = 'BranchMovedError';
  }
}

function statusWord(code: string): string {
  switch (code[0]) {
    case 'A':
      return 'added';
    case 'D':
      return 'deleted';
    case 'M':
      return 'modified';
    case 'R':
      return 'renamed';
    default:
      return 'modified';
  }
}

interface RunOpts {
  input?: string | Buffer;
  env?: Record<string, string>;
}

function run(args: string[], opts: RunOpts): Promise<string> {
  return runBytes(args, opts).then((b) => b.toString('utf8'));
}

function gitEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? tmpdir(),
    // Our repository's behaviour must not depend on the host's git configuration.
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    LC_ALL: 'C',
    ...extra,
  };
}

/** Runs git without a shell; stdin only when given, so nothing ever waits on a terminal. */
function runBytes(args: string[], opts: RunOpts): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, {
      env: gitEnv(opts.env),
      stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on('data', (c: Buffer) => out.push(c));
    child.stderr?.on('data', (c: Buffer) => err.push(c));
    child.once('error', reject);
    child.once('close', (code) => {
      const stderr = Buffer.concat(err).toString('utf8');
      if (code === 0) resolve(Buffer.concat(out));
      else
        reject(
          new GitError(
            `git ${args.filter((a) => a !== '--git-dir').join(' ')} failed: ${stderr.trim()}`,
            code,
            stderr,
          ),
        );
    });
    if (opts.input !== undefined && child.stdin) child.stdin.end(opts.input);
  });
}

import { spawn } from 'node:child_process';
import { lstat, mkdir, readFile, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, normalize, sep } from 'node:path';

/** How builds run; from the service's settings (config.ts, README "Rebuild"). */
export interface BuildSettings {
  /** Parent of each build's temporary directory. */
  buildRoot: string;
  timeoutMs: number;
  logMaxBytes: number;
  /** Run without a network namespace where one cannot be made (development only). */
  allowNetwork: boolean;
  /** When the service runs as root, the build runs as this uid/gid. */
  uid: number;
  gid: number;
  maxOutputBytes: number;
  maxOutputFiles: number;
}

/**
 * Build output kept in memory for the deployment log: the first and the last half of at most
 * `max` bytes, with a marker saying how much was left out between them. NUL bytes are dropped
 * (a PostgreSQL text column cannot hold them).
 */
export class BoundedLog {
  private head = '';
  private tail: string[] = [];
  private tailBytes = 0;
  private dropped = 0;
  /** Changes with every write: the flusher compares it with what it wrote last. */
  revision = 0;

  constructor(private readonly max: number) {}

  write(chunk: string | Buffer): void {
    let text = (typeof chunk === 'string' ? chunk : chunk.toString('utf8')).replaceAll('\0', '');
    if (!text) return;
    this.revision++;
    const half = Math.floor(this.max / 2);
    if (this.head.length < half) {
      const room = half - this.head.length;
      this.head += text.slice(0, room);
      text = text.slice(room);
      if (!text) return;
    }
    this.tail.push(text);
    this.tailBytes += text.length;
    while (this.tailBytes > half && this.tail.length) {
      const first = this.tail[0] as string;
      const over = this.tailBytes - half;
      if (first.length <= over) {
        this.tail.shift();
        this.tailBytes -= first.length;
        this.dropped += first.length;
      } else {
        this.tail[0] = first.slice(over);
        this.tailBytes -= over;
        this.dropped += over;
      }
    }
  }

  line(text: string): void {
    this.write(`${text}\n`);
  }

  text(): string {
    const gap = this.dropped ? `\n[... ${this.dropped} characters of output left out ...]\n` : '';
    return `${this.head}${gap}${this.tail.join('')}`;
  }
}

export class BuildRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BuildRefused';
  }
}

export interface BuildPlan {
  /** What the log shows: `npm run build`. */
  command: string[];
  script: string;
  /** Candidate output directories, relative to the project root, in order. */
  outputDirs: string[];
}

/** A relative directory inside the project: no absolute path, no `..`, no NUL. */
function safeRelativeDir(value: unknown): string | null {
  if (typeof value !== 'string' || !value.trim() || value.includes('\0') || value.length > 200) return null;
  if (isAbsolute(value) || value.includes('\\')) return null;
  const n = normalize(value).replace(/\/+$/, '');
  if (!n || n === '.' || n === '..' || n.startsWith(`..${sep}`) || n.split('/').includes('.git')) return null;
  return n;
}

/**
 * Reads the build from the project's package.json: `scripts.build` runs as `npm run build`; the
 * output is `outputDir` when given (a relative directory), else the first of `dist/` and
 * `build/` that the build leaves. No package.json, invalid JSON, no build script or a bad
 * outputDir refuse the build with a message that says so.
 */
export async function planBuild(projectDir: string): Promise<BuildPlan> {
  let raw: string;
  try {
    raw = await readFile(join(projectDir, 'package.json'), 'utf8');
  } catch {
    throw new BuildRefused('The project has no package.json at its root: nothing to build');
  }
  let pkg: { scripts?: Record<string, unknown>; outputDir?: unknown };
  try {
    pkg = JSON.parse(raw) as typeof pkg;
  } catch (err) {
    throw new BuildRefused(`package.json is not valid JSON: ${(err as Error).message}`);
  }
  if (!pkg || typeof pkg !== 'object' || Array.isArray(pkg))
    throw new BuildRefused('package.json is not a JSON object');
  const script = pkg.scripts && typeof pkg.scripts === 'object' ? pkg.scripts['build'] : undefined;
  if (typeof script !== 'string' || !script.trim())
    throw new BuildRefused('package.json has no "build" script (scripts.build): nothing to build');
  let outputDirs = ['dist', 'build'];
  if (pkg.outputDir !== undefined) {
    const dir = safeRelativeDir(pkg.outputDir);
    if (!dir)
      throw new BuildRefused('package.json "outputDir" must be a relative directory inside the project');
    outputDirs = [dir];
  }
  return { command: ['npm', 'run', 'build'], script, outputDirs };
}

/** The first candidate that is a real directory inside the project (not a symlink out of it). */
export async function findOutput(projectDir: string, candidates: string[]): Promise<string | null> {
  const root = await realpath(projectDir);
  for (const candidate of candidates) {
    const path = join(projectDir, candidate);
    try {
      const info = await lstat(path);
      if (!info.isDirectory()) continue;
      const real = await realpath(path);
      if (real.startsWith(root + sep)) return candidate;
    } catch {
      /* not there */
    }
  }
  return null;
}

const isRoot = () => process.getuid?.() === 0;

/**
 * The command prefix that takes the network away: a new network namespace, which has only a
 * loopback interface that is down, so neither the internet nor this machine's own services
 * (databases, Redis, the other services on 127.0.0.1) are reachable. A new PID namespace too:
 * when the build ends or is killed, the kernel kills everything still running in it, so not
 * even a process that left the process group (setsid, a daemon) outlives the build and could
 * still change its output while it is copied. As root the build also
 * drops to the build uid/gid (setpriv, no new privileges); otherwise an unprivileged user
 * namespace makes the network namespace. Probed with `true` before the first build.
 */
function isolationPrefix(s: BuildSettings): string[] {
  return isRoot()
    ? [
        'unshare',
        '--net',
        '--pid',
        '--fork',
        '--kill-child',
        '--',
        'setpriv',
        `--reuid=${s.uid}`,
        `--regid=${s.gid}`,
        '--clear-groups',
        '--no-new-privs',
        '--',
      ]
    : ['unshare', '--user', '--map-root-user', '--net', '--pid', '--fork', '--kill-child', '--'];
}

let probed: Promise<string | null> | null = null;

/** null when the isolation works here, else why not. Only a success is remembered. */
function probeIsolation(s: BuildSettings): Promise<string | null> {
  probed ??= new Promise<string | null>((resolve) => {
    const [cmd, ...args] = [...isolationPrefix(s), 'true'];
    const child = spawn(cmd as string, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    const err: Buffer[] = [];
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.once('error', (e) => resolve(e.message));
    child.once('close', (code) =>
      resolve(code === 0 ? null : Buffer.concat(err).toString('utf8').trim() || `exit ${code}`),
    );
  }).then((problem) => {
    if (problem) probed = null;
    return problem;
  });
  return probed;
}

export interface RunResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  durationMs: number;
}

/**
 * Runs the build command in `projectDir` without network, with a clean environment (nothing of
 * the service's own: no secrets, no database or Redis addresses) and a time limit after which the
 * whole process group is killed. Output goes to `log` as it comes. The group is also killed when
 * the command itself exits, so nothing it started in the background outlives the build.
 */
export async function runBuild(
  plan: BuildPlan,
  dirs: { project: string; home: string; tmp: string },
  s: BuildSettings,
  log: BoundedLog,
): Promise<RunResult> {
  let prefix: string[] = [];
  const problem = await probeIsolation(s);
  if (problem) {
    if (!s.allowNetwork)
      throw new BuildRefused(
        `Builds run without network (unshare --net), which is not possible here: ${problem}. ` +
          'Set DEVPROJECTS_BUILD_ALLOW_NETWORK=true only on a development machine to build with network.',
      );
    log.line(`warning: building WITH network access (DEVPROJECTS_BUILD_ALLOW_NETWORK=true): ${problem}`);
  } else {
    prefix = isolationPrefix(s);
  }
  const env: Record<string, string> = {
    PATH: [dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':'),
    HOME: dirs.home,
    TMPDIR: dirs.tmp,
    LANG: 'C.UTF-8',
    CI: 'true',
    NODE_ENV: 'production',
    NO_UPDATE_NOTIFIER: '1',
    npm_config_cache: join(dirs.home, '.npm'),
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    npm_config_offline: 'true',
  };
  const [cmd, ...args] = [...prefix, ...plan.command];
  const started = Date.now();
  return new Promise<RunResult>((resolve, reject) => {
    const child = spawn(cmd as string, args, {
      cwd: dirs.project,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let timedOut = false;
    let exit: { code: number | null; signal: string | null } | null = null;
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* the group is gone */
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      log.line(`\nerror: the build ran longer than ${Math.round(s.timeoutMs / 1000)} s and was killed`);
      killGroup();
    }, s.timeoutMs);
    child.stdout.on('data', (c: Buffer) => log.write(c));
    child.stderr.on('data', (c: Buffer) => log.write(c));
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      killGroup();
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      const e = exit ?? { code, signal };
      resolve({ exitCode: e.code, signal: e.signal, timedOut, durationMs: Date.now() - started });
    });
  });
}

/** Makes the build's directories, owned by the build user when the service runs as root. */
export async function prepareDirs(work: string) {
  const dirs = { project: join(work, 'src'), home: join(work, 'home'), tmp: join(work, 'tmp') };
  for (const d of Object.values(dirs)) await mkdir(d, { recursive: true });
  return dirs;
}

/** chown -R of the build's directory to the build user (root only; a no-op otherwise). */
export async function handOver(work: string, s: BuildSettings): Promise<void> {
  if (!isRoot()) return;
  await new Promise<void>((resolve, reject) => {
    const child = spawn('chown', ['-R', `${s.uid}:${s.gid}`, work], { stdio: ['ignore', 'ignore', 'pipe'] });
    const err: Buffer[] = [];
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`chown failed: ${Buffer.concat(err).toString('utf8')}`)),
    );
  });
}

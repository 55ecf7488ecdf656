import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@aplt/proxy';

const run = promisify(execFile);

/** A PostgreSQL server of its own, in a temporary directory: a second server for tests. */
export interface PgCluster {
  host: string;
  port: number;
  user: string;
  dataDir: string;
  /** pg_ctl stop -m fast: sessions are ended, new connections refused until start(). */
  stop(): Promise<void>;
  /** Starts it again on the same port and data (waits until it accepts connections). */
  start(): Promise<void>;
  /** Stops it and removes its directory. */
  destroy(): Promise<void>;
}

/** The newest PostgreSQL binaries of the machine (PG_BIN_DIR wins), e.g. /usr/lib/postgresql/15/bin. */
function binDir(): string {
  if (process.env.PG_BIN_DIR) return process.env.PG_BIN_DIR;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions[0])
    throw new Error('no PostgreSQL server binaries (initdb) under /usr/lib/postgresql; set PG_BIN_DIR');
  return join(root, versions[0], 'bin');
}

/**
 * initdb + pg_ctl in a fresh temporary directory on a free loopback port, trust authentication,
 * superuser `postgres`. PostgreSQL refuses to run as root, so under root the commands run as the
 * `postgres` system user (runuser), which then owns the directory.
 */
export async function startPgCluster(): Promise<PgCluster> {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'pg-cluster-'));
  const dataDir = join(dir, 'data');
  const root = process.getuid?.() === 0;
  if (root) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const pgRun = (cmd: string, args: string[]) =>
    root ? run('runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args]) : run(join(bin, cmd), args);
  const port = await freePort();
  const ctl = (action: 'start' | 'stop') =>
    action === 'start'
      ? pgRun('pg_ctl', [
          '-D',
          dataDir,
          '-l',
          join(dir, 'server.log'),
          '-w',
          '-t',
          '60',
          '-o',
          `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
          'start',
        ])
      : pgRun('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', '-t', '60', 'stop']);
  try {
    await pgRun('initdb', [
      '-D',
      dataDir,
      '-A',
      'trust',
      '-U',
      'postgres',
      '-E',
      'UTF8',
      '--locale=C',
      '--no-sync',
    ]);
    await ctl('start');
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  let running = true;
  return {
    host: '127.0.0.1',
    port,
    user: 'postgres',
    dataDir,
    async stop() {
      await ctl('stop');
      running = false;
    },
    async start() {
      await ctl('start');
      running = true;
    },
    async destroy() {
      if (running) await ctl('stop').catch(() => {});
      running = false;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

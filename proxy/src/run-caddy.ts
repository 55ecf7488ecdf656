import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CaddyOptions, renderCaddyfile } from './caddyfile';

export interface RunningProxy {
  port: number;
  caddyfile: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' }, () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

/** Runs Debian's caddy with a generated Caddyfile until stop(); used by the fleet and by e2e tests. */
export async function startCaddy(
  opts: CaddyOptions & { caddyBin?: string; workDir?: string; onOutput?: (line: string) => void },
): Promise<RunningProxy> {
  const dir = opts.workDir ?? mkdtempSync(join(tmpdir(), 'aplt-caddy-'));
  // A directory made here (Caddyfile, Caddy's data) goes with the process; a given one stays.
  const removeDir = () => {
    if (opts.workDir === undefined) rmSync(dir, { recursive: true, force: true });
  };
  const caddyfile = join(dir, 'Caddyfile');
  writeFileSync(caddyfile, renderCaddyfile(opts));
  const child = spawn(
    opts.caddyBin ?? process.env.CADDY_BIN ?? 'caddy',
    ['run', '--config', caddyfile, '--adapter', 'caddyfile'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir },
    },
  );
  let output = '';
  let serving = false;
  const collect = (chunk: Buffer) => {
    const text = chunk.toString();
    output = (output + text).slice(-8_000);
    serving ||= output.includes('serving initial configuration');
    opts.onOutput?.(text);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  // Ready when Caddy itself says so and the port answers. An open port alone is not enough: when
  // Caddy cannot bind (another process took the port), whatever holds it would answer instead.
  const deadline = Date.now() + 10_000;
  while (!(serving && (await portOpen(opts.port)))) {
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      removeDir();
      throw new Error(`caddy did not start on port ${opts.port}:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port: opts.port,
    caddyfile,
    process: child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      removeDir();
    },
  };
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FleetFixture, startFleetFixture } from './fleet-fixture';
import { steadyLoad } from './steady-load';

/**
 * The start command's fleet supervises its processes and balances over replicas (issue #18):
 * two replicas of the access service (forward auth on every request) and of the admin service
 * (the tenant root), one of everything else, real processes behind the real Caddy.
 */
describe('the fleet supervises its processes and balances over replicas', () => {
  let f: FleetFixture;
  const HOST = 'acme.localhost';

  /** Resolves when a line of the fleet's output (past or future) matches; fails after 90 s. */
  async function logged(pattern: RegExp, from = 0): Promise<string> {
    const deadline = Date.now() + 90_000;
    for (;;) {
      const line = f.output.slice(from).find((l) => pattern.test(l));
      if (line) return line;
      if (Date.now() > deadline)
        throw new Error(`no line ${pattern} in the fleet's output:\n${f.output.slice(-30).join('\n')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const pidOf = (name: string) => {
    const pid = f.fleet.processes().find((p) => p.name === name)?.pid;
    if (pid === undefined) throw new Error(`${name} is not running`);
    return pid;
  };
  /** Requests that reached each admin replica: its own 'request completed' lines for GET /. */
  const servedBy = (replica: string, from: number) =>
    f.output
      .slice(from)
      .filter(
        (l) => l.startsWith(`${replica}| `) && l.includes('"request completed"') && l.includes('"url":"/"'),
      ).length;

  beforeAll(async () => {
    f = await startFleetFixture('master,acme', {
      FLEET_REPLICAS: '1,access=2,admin=2',
      // The services' request lines show which replica answered.
      LOG_LEVEL: 'info',
      // Every process from its bundle, as the start command runs them (the test command builds
      // first); 14 processes compiling TypeScript at once take minutes on two cores.
      FLEET_RUNTIME: 'compiled',
    });
  }, 600_000);

  afterAll(async () => {
    await f?.stop();
  }, 120_000);

  it('starts each replica on its own port and lets the proxy send requests to both', async () => {
    const admin = f.fleet.processes().filter((p) => p.service === 'admin');
    expect(admin.map((p) => p.name)).toEqual(['admin.1', 'admin.2']);
    expect(new Set(admin.map((p) => p.port)).size).toBe(2);
    expect(f.fleet.replicaPorts.access).toHaveLength(2);
    const from = f.output.length;
    for (let i = 0; i < 20; i++) {
      const res = await f.via(HOST, '/');
      expect(res.status).toBe(200);
      expect(res.json().tenant.id).toBe('acme');
    }
    expect(servedBy('admin.1', from)).toBeGreaterThan(0);
    expect(servedBy('admin.2', from)).toBeGreaterThan(0);
  });

  it('loses no idempotent request when a replica of admin and then of access is killed under load', async () => {
    const load = steadyLoad({ port: f.proxyPort, targets: [{ host: HOST, path: '/' }], connections: 4 });
    for (const name of ['admin.2', 'access.1']) {
      const from = f.output.length;
      const before = load.result.ok;
      process.kill(pidOf(name), 'SIGKILL');
      await logged(new RegExp(`^${name.replace('.', '\\.')} exited \\(SIGKILL\\).*restart #1 in`), from);
      await logged(new RegExp(`^${name.replace('.', '\\.')} is back \\(pid \\d+, restart #1\\)`), from);
      // Traffic went on while it was down and after it came back.
      expect(load.result.ok).toBeGreaterThan(before);
    }
    const result = await load.stop();
    expect(result.failures).toEqual([]);
    expect(result.ok).toBeGreaterThan(0);
    expect(f.fleet.processes().find((p) => p.name === 'admin.2')?.restarts).toBe(1);
  }, 300_000);

  it('restarts a crashed single service and the catalog worker while the rest keeps serving', async () => {
    const from = f.output.length;
    const workerPid = pidOf('catalog-worker');
    process.kill(pidOf('documents'), 'SIGKILL');
    process.kill(workerPid, 'SIGKILL');
    await logged(/^documents exited \(SIGKILL\)/, from);
    await logged(/^catalog-worker exited \(SIGKILL\)/, from);
    // The fleet did not stop: other services answer through the proxy meanwhile.
    expect((await f.via(HOST, '/')).status).toBe(200);
    expect((await f.via(HOST, '/-/auth/readyz')).status).toBe(200);
    await logged(/^documents is back \(pid \d+, restart #1\)/, from);
    await logged(/^catalog-worker is back \(pid \d+, restart #1\)/, from);
    expect(pidOf('catalog-worker')).not.toBe(workerPid);
    const ready = await f.via(HOST, '/-/documents/readyz');
    expect(ready.status).toBe(200);
    expect(f.output.slice(from).some((l) => /stopping the fleet/.test(l))).toBe(false);
  }, 300_000);
});

import { readFileSync } from 'node:fs';
import { createRedis, QueueClient } from '@aplt/queue';
import { testServers } from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_GLIBC_TUNABLES } from '../fleet/malloc-env';
import { demoAdmin } from '../fleet/seeds/demo-tenants';
import { type FleetFixture, startFleetFixture } from './fleet-fixture';
import { type LoadTarget, steadyLoad } from './steady-load';

/**
 * The start command's fleet supervises its processes and balances over replicas (issue #18):
 * two replicas of every process (HTTP services, the storefront and the catalog worker), real
 * processes behind the real Caddy.
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
      FLEET_REPLICAS: '2',
      // A killed worker's job is back in the queue within about 2 + 2 x 0.5 s.
      QUEUE_LOCK_DURATION_MS: '2000',
      QUEUE_STALLED_INTERVAL_MS: '500',
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
    // Every process (replicas and the catalog worker too) runs with the fleet's malloc settings.
    // glibc cuts the variable at its first separator in place once it has read it, so that much
    // of it is what /proc shows.
    const firstTunable = SERVICE_GLIBC_TUNABLES.split(':')[0];
    for (const p of f.fleet.processes()) {
      const environ = readFileSync(`/proc/${p.pid}/environ`, 'utf8').split('\0');
      expect(environ, p.name).toContain(`GLIBC_TUNABLES=${firstTunable}`);
    }
  });

  it('loses no idempotent request, no queued job and no number when one replica of every service is killed at once', async () => {
    const login = await f.via(HOST, '/auth/user/emailpass', {
      method: 'POST',
      body: { email: demoAdmin.email, password: demoAdmin.password },
    });
    expect(login.status, login.text()).toBe(200);
    const bearer = { authorization: `Bearer ${login.json().token}` };
    const api = (method: string, path: string, body?: object) =>
      f.via(HOST, path, { method, headers: bearer, ...(body ? { body } : {}) });
    const customers = await api('GET', '/admin/aplt/customers?limit=1');
    expect(customers.status, customers.text()).toBe(200);
    const customerId = Number(customers.json().data[0].id);

    // Reads of every service through the proxy, signed-in ones among them.
    const targets: LoadTarget[] = [
      { host: HOST, path: '/' },
      { host: HOST, path: '/admin/aplt/quotations?limit=5', headers: bearer },
      { host: HOST, path: '/admin/aplt/customers?limit=5', headers: bearer },
      ...['auth', 'password-sync', 'documents', 'catalog', 'gatekeeper', 'devprojects', 'admin'].map((s) => ({
        host: HOST,
        path: `/-/${s}/healthz`,
      })),
      { host: 'portal.localhost', path: '/healthz' },
      { host: 'modal.localhost', path: '/healthz' },
    ];
    for (const t of targets)
      expect((await f.via(t.host, t.path, { headers: t.headers ?? {} })).status, t.path).toBe(200);
    const load = steadyLoad({ port: f.proxyPort, targets, connections: 6 });

    // Writes that are not idempotent: three clients creating quotations one after another. One
    // may fail when its replica dies under it; none may leave a hole in the numbering.
    let writing = true;
    const created: string[] = [];
    const writeFailures: string[] = [];
    const writers = Array.from({ length: 3 }, async (_, w) => {
      for (let i = 0; writing; i++) {
        const res = await api('POST', '/admin/aplt/quotations', {
          customer_id: customerId,
          title: `Replica kill ${w}-${i}`,
          source_code: 'manual',
          lines: [
            { line_type: 'product', description: 'Pen', quantity: 10, unit_price: '1.00', setup_costs: [] },
          ],
        }).catch((err: Error) => ({ status: 0, text: () => err.message, json: () => ({}) }));
        if (res.status === 201) created.push(String(res.json().quotation_number));
        else writeFailures.push(`${res.status} ${res.text().slice(0, 120)}`);
      }
    });

    // Jobs queued just before the kill: the auth replicas' mail workers share them.
    const producer = createRedis(testServers().redisUrl);
    const queues = new QueueClient(producer, f.prefix);
    const MAILS = 40;
    try {
      for (let i = 0; i < MAILS; i++)
        await queues.enqueue('mail', 'mail.send', {
          to: 'kill@example.com',
          subject: `replica kill ${i}`,
          text: `${i}`,
        });
    } finally {
      await queues.close();
      producer.disconnect();
    }

    await new Promise((r) => setTimeout(r, 1_000));
    const from = f.output.length;
    const before = load.result.ok;
    const victims = f.fleet.processes().filter((p) => p.name.endsWith('.1'));
    expect(victims.length).toBeGreaterThanOrEqual(10);
    for (const p of victims) process.kill(pidOf(p.name), 'SIGKILL');
    for (const p of victims) {
      const name = p.name.replace('.', '\\.');
      await logged(new RegExp(`^${name} exited \\(SIGKILL\\)`), from);
      await logged(new RegExp(`^${name} is back \\(pid \\d+, restart #1\\)`), from);
    }
    // Traffic went on while they were down and after they came back.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(load.result.ok).toBeGreaterThan(before);
    writing = false;
    await Promise.all(writers);
    const result = await load.stop();
    expect(result.failures).toEqual([]);

    // Every mail queued went out, though the worker holding some of them died.
    const sent = new Set<number>();
    for (let i = 0; i < 600 && sent.size < MAILS; i++) {
      for (const l of f.output) {
        const m = /mail to kill@example\.com: replica kill (\d+)/.exec(l);
        if (m) sent.add(Number(m[1]));
      }
      if (sent.size < MAILS) await new Promise((r) => setTimeout(r, 100));
    }
    expect(sent.size).toBe(MAILS);

    // The numbering stayed gapless: what was created (answered or not) is one unbroken run.
    expect(created.length).toBeGreaterThan(0);
    const numbers: string[] = [];
    for (let offset = 0; ; offset += 200) {
      const page = await api('GET', `/admin/aplt/quotations?limit=200&offset=${offset}&q=Replica%20kill`);
      expect(page.status, page.text()).toBe(200);
      numbers.push(...page.json().data.map((q: { quotation_number: string }) => q.quotation_number));
      if (page.json().data.length < 200) break;
    }
    for (const n of created) expect(numbers).toContain(n);
    const seq = numbers.map((n) => Number(/-(\d+)$/.exec(n)![1])).sort((a, b) => a - b);
    expect(
      seq.at(-1)! - seq[0]! + 1,
      `numbers ${seq.join(',')}; failed writes ${writeFailures.join(' | ')}`,
    ).toBe(seq.length);
    expect(new Set(seq).size).toBe(seq.length);
  }, 300_000);

  it('restarts a service whose every replica crashed, and the catalog workers, while the rest keeps serving', async () => {
    const from = f.output.length;
    const workerPid = pidOf('catalog-worker.2');
    for (const name of ['documents.1', 'documents.2', 'catalog-worker.1', 'catalog-worker.2'])
      process.kill(pidOf(name), 'SIGKILL');
    await logged(/^documents\.2 exited \(SIGKILL\)/, from);
    await logged(/^catalog-worker\.2 exited \(SIGKILL\)/, from);
    // The fleet did not stop: other services answer through the proxy meanwhile.
    expect((await f.via(HOST, '/')).status).toBe(200);
    expect((await f.via(HOST, '/-/auth/readyz')).status).toBe(200);
    for (const name of ['documents.1', 'documents.2', 'catalog-worker.1', 'catalog-worker.2'])
      await logged(new RegExp(`^${name.replace('.', '\\.')} is back \\(pid \\d+, restart #\\d\\)`), from);
    expect(pidOf('catalog-worker.2')).not.toBe(workerPid);
    const ready = await f.via(HOST, '/-/documents/readyz');
    expect(ready.status).toBe(200);
    expect(f.output.slice(from).some((l) => /stopping the fleet/.test(l))).toBe(false);
  }, 300_000);
});

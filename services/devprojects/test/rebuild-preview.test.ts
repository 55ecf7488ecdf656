import { chmod, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccessAppForTest } from '@aplt/service-access/testing';
import { httpRequest, startTestProxy, type TestProxy, viaProxy } from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuildSettings } from '../src/rebuild/builder';
import { createHarness, type DevprojectsHarness } from './helpers';

/** A finished deployment as the API answers it, with the fields the tests read typed. */
interface DeploymentView {
  id: number;
  log: string;
  message: string;
  duration_ms: number;
  preview_url: string | null;
  [field: string]: unknown;
}

/** A tiny project: `npm run build` runs build.mjs, which writes a static site into dist/. */
const packageJson = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ name: 'demo', private: true, scripts: { build: 'node build.mjs' }, ...extra });

const siteBuild = (title: string) => `
import { mkdirSync, writeFileSync, symlinkSync } from 'node:fs';

console.log('building ${title}');
console.error('a warning on stderr');
mkdirSync('dist/assets', { recursive: true });
mkdirSync('dist/docs', { recursive: true });
writeFileSync('dist/index.html', '<!doctype html><title>${title}</title><link rel="stylesheet" href="assets/site.css"><h1>${title}</h1>');
writeFileSync('dist/assets/site.css', 'h1 { color: teal; }');
writeFileSync('dist/docs/index.html', '<p>docs of ${title}</p>');
writeFileSync('dist/data file.json', JSON.stringify({ env: Object.keys(process.env).sort(), uid: process.getuid() }));
// A symlink out of the output is never part of the preview.
symlinkSync('/etc/passwd', 'dist/passwd');
console.log('done');
`;

/** A GET with the path exactly as written (URL parsing would resolve `..` and `%2e%2e` first). */
function rawGet(port: number, path: string, headers: Record<string, string>) {
  return new Promise<{ status: number; body: string; type: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString('utf8'),
          type: String(res.headers['content-type']),
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('dev project rebuilds: real builds, previews through the proxy', () => {
  let h: DevprojectsHarness;
  let proxy: TestProxy;
  let acmeToken: string;
  let globexToken: string;
  let gate: string;
  let witness: Server;
  let witnessHits = 0;
  let acmeProject: { id: number; project_code: string };

  const api = (host: string, token: string) => ({
    get: (path: string) => proxy.request(host, path, { headers: { authorization: `Bearer ${token}` } }),
    post: (path: string, body: object) =>
      proxy.request(host, path, { method: 'POST', body, headers: { authorization: `Bearer ${token}` } }),
  });
  const acme = () => api('acme.localhost', acmeToken);
  const globex = () => api('globex.localhost', globexToken);
  const preview = (host: string, path: string, localAddress?: string) =>
    proxy.request(host, path, localAddress ? ({ localAddress } as never) : {});

  async function commit(client: ReturnType<typeof api>, projectId: number, files: Record<string, string>) {
    const res = await client.post('/admin/dev-projects/commit', {
      project_id: projectId,
      message: `Change ${Object.keys(files).join(', ')}`,
      files: Object.entries(files).map(([file_path, content]) => ({ file_path, content })),
    });
    expect(res.status, res.text()).toBe(201);
  }

  /** Requests a rebuild through the proxy and runs it with a worker of its own; the finished record. */
  async function rebuild(
    client: ReturnType<typeof api>,
    projectId: number,
    tenant: string,
    build: Partial<BuildSettings> = {},
    whileRunning?: (deploymentId: number) => Promise<void>,
  ) {
    const res = await client.post('/admin/dev-projects/rebuild', { project_id: projectId, tenant });
    expect(res.status, res.text()).toBe(202);
    const { deployment, job_id, preview_url } = res.json();
    expect(deployment.status).toBe('started');
    const worker = h.startWorker({ timeoutMs: 60_000, ...build });
    const { QueueEvents } = await import('bullmq');
    const events = new QueueEvents('rebuild', { connection: { url: h.redis.url }, prefix: h.redis.prefix });
    try {
      await events.waitUntilReady();
      if (whileRunning) await whileRunning(deployment.id);
      const job = await h.queue.queue('rebuild').getJob(job_id);
      if (!(await job?.isCompleted())) await job?.waitUntilFinished(events);
    } finally {
      await events.close();
      await worker.close();
    }
    const one = await client.get(`/admin/dev-projects/deployments/${deployment.id}`);
    expect(one.status).toBe(200);
    return { ...one.json().deployment, preview_url } as DeploymentView;
  }

  beforeAll(async () => {
    h = await createHarness(['acme', 'globex']);
    const app = await h.build();
    const access = await createAccessAppForTest(h.fleet.registry);
    proxy = await startTestProxy({ access, devprojects: app });
    acmeToken = await h.adminToken('acme');
    globexToken = await h.adminToken('globex');
    gate = await mkdtemp(join(tmpdir(), 'devprojects-gate-'));
    await chmod(gate, 0o777);
    witness = createServer((_req, res) => {
      witnessHits++;
      res.end('reached');
    });
    await new Promise<void>((resolve) => witness.listen(0, '127.0.0.1', resolve));
    const created = await acme().post('/admin/dev-projects', {
      name: 'Landing page',
      project_type: 'feature',
    });
    expect(created.status).toBe(201);
    acmeProject = created.json().dev_project;
    expect(acmeProject.project_code).toBe('DP-0001');
  });

  afterAll(async () => {
    await proxy?.stop();
    await new Promise((resolve) => witness?.close(resolve));
    if (gate) await rm(gate, { recursive: true, force: true });
    await h?.cleanup();
  });

  it('builds the branch without network or the service environment, streams the log, and serves the preview through the proxy', async () => {
    const go = join(gate, 'go');
    await commit(acme(), acmeProject.id, {
      'package.json': packageJson(),
      // Waits for the test to have seen its first line in the record: the log is written while it runs.
      'build.mjs': `import { existsSync } from 'node:fs';\nconsole.log('step one');\nwhile (!existsSync(${JSON.stringify(go)})) await new Promise((r) => setTimeout(r, 50));\n${siteBuild('Acme landing v1')}`,
    });
    const done = await rebuild(acme(), acmeProject.id, 'acme', {}, async (id) => {
      for (;;) {
        const live = (await acme().get(`/admin/dev-projects/deployments/${id}`)).json().deployment;
        if (live.log?.includes('step one')) {
          expect(live.status).toBe('started');
          expect(live.finished_at).toBeNull();
          break;
        }
        expect(live.status, live.log).toBe('started');
        await new Promise((r) => setTimeout(r, 100));
      }
      await writeFile(go, 'go');
    });
    expect(done).toMatchObject({
      status: 'succeeded',
      exit_code: 0,
      signal: null,
      timed_out: false,
      output_dir: 'dist',
      preview: true,
    });
    expect(done.duration_ms).toBeGreaterThanOrEqual(0);
    expect(done.log).toContain('$ npm run build');
    expect(done.log).toContain('building Acme landing v1');
    expect(done.log).toContain('a warning on stderr');
    expect(done.log).toContain('left out of the preview (not regular files of the build): passwd');
    expect(done.preview_url).toBe('http://dp-0001.preview.acme.localhost:8080/');

    const host = 'dp-0001.preview.acme.localhost';
    const index = await preview(host, '/');
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(index.text()).toContain('<h1>Acme landing v1</h1>');
    const css = await preview(host, '/assets/site.css');
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.text()).toBe('h1 { color: teal; }');
    // A directory without its slash is sent to it; with it, its index.html.
    const docs = await preview(host, '/docs?x=1');
    expect(docs.status).toBe(301);
    expect(docs.headers.location).toBe('/docs/?x=1');
    expect((await preview(host, '/docs/')).text()).toBe('<p>docs of Acme landing v1</p>');
    // Percent-encoding is decoded once; the case of the code in the host does not matter.
    const data = await preview('DP-0001.preview.acme.localhost', '/data%20file.json');
    expect(data.status).toBe(200);
    expect(data.headers['content-type']).toBe('application/json; charset=utf-8');
    const built = data.json();
    // The build ran as the unprivileged build user with a clean environment: none of the service's.
    expect(built.uid).toBe(65534);
    for (const name of built.env as string[])
      expect(name, name).not.toMatch(/SECRET|TOKEN|PASSWORD|DATABASE|REDIS|PG|MYSQL|JWT|ASSERTION/i);
    expect(built.env).toContain('PATH');
    expect((await preview(host, '/passwd')).status).toBe(404);
    expect((await preview(host, '/nope.html')).status).toBe(404);
    expect((await preview(host, '/assets/site.css', undefined)).headers['x-content-type-options']).toBe(
      'nosniff',
    );

    const status = (await acme().get(`/admin/dev-projects/status?project_id=${acmeProject.id}`)).json();
    expect(status.dev_project).toMatchObject({ status: 'deployed', version: '0.1.1.1' });
    expect(status.last_deployment).toMatchObject({ id: done.id, status: 'succeeded', exit_code: 0 });
    expect(status.preview).toEqual({
      url: 'http://dp-0001.preview.acme.localhost:8080/',
      deployment_id: done.id,
    });
    const list = (await acme().get(`/admin/dev-projects/deployments?project_id=${acmeProject.id}`)).json();
    expect(list.count).toBe(1);
    expect(list.deployments[0]).toMatchObject({ id: done.id, status: 'succeeded', preview: true });
    expect(list.deployments[0].log).toBeUndefined();
    expect(list.deployments[0].log_bytes).toBeGreaterThan(0);
  });

  it('records a failing build with its exit status and keeps the previous preview', async () => {
    await commit(acme(), acmeProject.id, {
      'build.mjs': `console.log('starting v2');\nconsole.error('compile error in v2');\nprocess.exit(3);\n`,
    });
    const done = await rebuild(acme(), acmeProject.id, 'acme');
    expect(done).toMatchObject({ status: 'failed', exit_code: 3, timed_out: false, preview: false });
    expect(done.message).toContain('exit status 3');
    expect(done.log).toContain('compile error in v2');
    expect(done.log).toContain('the previous preview (if any) stays live');
    const page = await preview('dp-0001.preview.acme.localhost', '/');
    expect(page.status).toBe(200);
    expect(page.text()).toContain('Acme landing v1');
    const status = (await acme().get(`/admin/dev-projects/status?project_id=${acmeProject.id}`)).json();
    expect(status.dev_project.status).toBe('in_progress');
    expect(status.last_deployment).toMatchObject({ id: done.id, status: 'failed', exit_code: 3 });
    expect(status.preview.deployment_id).not.toBe(done.id);
    expect(status.changelog[0]).toMatchObject({ action: 'rebuild_failed' });
  });

  it('builds without network: not even this machine’s loopback is reachable', async () => {
    const port = (witness.address() as AddressInfo).port;
    await commit(acme(), acmeProject.id, {
      'build.mjs': `import http from 'node:http';
const req = http.get('http://127.0.0.1:${port}/', (res) => { console.log('REACHED', res.statusCode); process.exit(0); });
req.on('error', (err) => { console.error('network error', err.code); process.exit(7); });
`,
    });
    const done = await rebuild(acme(), acmeProject.id, 'acme');
    expect(done).toMatchObject({ status: 'failed', exit_code: 7 });
    expect(done.log).toMatch(/network error (ENETUNREACH|ECONNREFUSED|EADDRNOTAVAIL)/);
    expect(done.log).not.toContain('REACHED');
    expect(witnessHits).toBe(0);
    // The witness is reachable from outside the build, so the failure is the build's isolation.
    expect((await httpRequest(`http://127.0.0.1:${port}/`)).text()).toBe('reached');
    expect(witnessHits).toBe(1);
    expect((await preview('dp-0001.preview.acme.localhost', '/')).text()).toContain('Acme landing v1');
  });

  it('kills a build that runs past the time limit, with everything it started', async () => {
    await commit(acme(), acmeProject.id, {
      'build.mjs': `import { spawn } from 'node:child_process';
// One child in the build's process group, one that leaves it (a daemon): neither may survive.
spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', 'dpbuildmarker-grouped'], { stdio: 'ignore' });
spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', 'dpbuildmarker-daemon'], { stdio: 'ignore', detached: true }).unref();
console.log('background started');
setInterval(() => {}, 1000);
`,
    });
    const done = await rebuild(acme(), acmeProject.id, 'acme', { timeoutMs: 2000 });
    expect(done).toMatchObject({ status: 'failed', timed_out: true, exit_code: null, signal: 'SIGKILL' });
    expect(done.log).toContain('background started');
    expect(done.log).toContain('ran longer than 2 s and was killed');
    // No process of the build is left running (a zombie waiting for PID 1 to reap it is dead).
    const survivors: string[] = [];
    for (const pid of (await readdir('/proc')).filter((p) => /^\d+$/.test(p))) {
      const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
      if (!/dpbuildmarker-(grouped|daemon)/.test(cmdline)) continue;
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (state && state !== 'Z' && state !== 'X') survivors.push(`${pid} ${state} ${cmdline}`);
    }
    expect(survivors).toEqual([]);
    expect((await preview('dp-0001.preview.acme.localhost', '/')).text()).toContain('Acme landing v1');
  });

  it('fails clearly without a package.json build script, and keeps the preview', async () => {
    await commit(acme(), acmeProject.id, { 'package.json': JSON.stringify({ name: 'demo', scripts: {} }) });
    const done = await rebuild(acme(), acmeProject.id, 'acme');
    expect(done).toMatchObject({ status: 'failed', exit_code: null });
    expect(done.message).toContain('package.json has no "build" script');
    await commit(acme(), acmeProject.id, {
      'package.json': packageJson({ outputDir: '../../etc' }),
      'build.mjs': siteBuild('escape'),
    });
    const escape = await rebuild(acme(), acmeProject.id, 'acme');
    expect(escape.message).toContain('"outputDir" must be a relative directory inside the project');
    expect((await preview('dp-0001.preview.acme.localhost', '/')).text()).toContain('Acme landing v1');
  });

  it('refuses traversal and malformed paths on the preview host', async () => {
    const host = 'dp-0001.preview.acme.localhost';
    const paths = [
      '/../../../../etc/passwd',
      '/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
      '/assets/..%2f..%2f..%2fetc%2fpasswd',
      '/assets/%2E%2E/%2E%2E/%2E%2E/%2E%2E/etc/passwd',
      '/..%5c..%5cetc%5cpasswd',
      '/index.html%00.css',
      '/%E0%A4%A',
      '/assets/%2fetc%2fpasswd',
      '/./assets/./../../etc/passwd',
    ];
    for (const path of paths) {
      // Through the proxy (which may clean `..` or refuse a bad escape itself: a plain 400).
      const res = await rawGet(proxy.port, path, { host });
      expect([400, 404], path).toContain(res.status);
      expect(res.body, path).not.toContain('root:');
      if (res.type.startsWith('application/json'))
        expect(JSON.parse(res.body), path).toMatchObject({
          type: expect.stringMatching(/invalid_data|not_found/),
        });
      // The service on its own refuses every one: the proxy is not its guard.
      const direct = await rawGet(proxy.ports.devprojects!, path, viaProxy(host));
      expect([400, 404], `direct ${path}`).toContain(direct.status);
      expect(direct.body, path).not.toContain('root:');
      expect(direct.body, path).toMatch(/invalid_data|not_found/);
    }
    // Dot segments reach the service only when sent as they are; it refuses them (400).
    for (const path of ['/..', '/../../../../etc/passwd', '/%2e%2e/%2e%2e/etc/passwd', '/assets/%2E%2E/x'])
      expect((await rawGet(proxy.ports.devprojects!, path, viaProxy(host))).status, path).toBe(400);
    // Other methods: a preview is read only.
    const post = await proxy.request(host, '/', { method: 'POST', body: {} });
    expect(post.status).toBe(405);
  });

  it("serves a project only on its own tenant's preview host; unknown codes and projects without a preview are 404", async () => {
    const first = await globex().post('/admin/dev-projects', { name: 'Globex one', project_type: 'feature' });
    const second = await globex().post('/admin/dev-projects', {
      name: 'Globex two',
      project_type: 'feature',
    });
    const g2 = second.json().dev_project;
    expect([first.json().dev_project.project_code, g2.project_code]).toEqual(['DP-0001', 'DP-0002']);
    await commit(globex(), g2.id, { 'package.json': packageJson(), 'build.mjs': siteBuild('Globex two') });
    expect((await rebuild(globex(), g2.id, 'globex')).status).toBe('succeeded');
    expect((await preview('dp-0002.preview.globex.localhost', '/')).text()).toContain('Globex two');
    // acme has no DP-0002: globex's code on acme's host is nobody's preview.
    expect((await preview('dp-0002.preview.acme.localhost', '/')).status).toBe(404);
    // globex's DP-0001 exists but was never built; acme's DP-0001 preview is not globex's.
    const unbuilt = await preview('dp-0001.preview.globex.localhost', '/');
    expect(unbuilt.status).toBe(404);
    expect(unbuilt.text()).not.toContain('Acme landing');
    expect((await preview('dp-0001.preview.nobody.localhost', '/')).status).toBe(404);
    expect((await preview('dp-9999.preview.acme.localhost', '/')).status).toBe(404);
    // /internal is never routed, on preview hosts either.
    expect(
      (await preview('dp-0001.preview.acme.localhost', '/internal/dev-projects/from-ticket')).status,
    ).toBe(403);
  });

  it('keeps previews behind forward auth: another address without a login, or a direct call, gets nothing', async () => {
    const denied = await preview('dp-0001.preview.acme.localhost', '/', '127.0.0.2');
    expect(denied.status).toBeGreaterThanOrEqual(300);
    expect(denied.text()).not.toContain('Acme landing');
    const direct = await httpRequest(`http://127.0.0.1:${proxy.ports.devprojects}/`, {
      host: 'dp-0001.preview.acme.localhost',
    });
    expect(direct.status).toBe(401);
    expect(direct.json()).toEqual({
      type: 'unauthorized',
      message: 'This request did not pass the access service',
    });
  });

  it('lists deployments per project and refuses bad ids', async () => {
    const list = await acme().get(`/admin/dev-projects/deployments?project_id=${acmeProject.id}&limit=2`);
    expect(list.status).toBe(200);
    expect(list.json()).toMatchObject({ project_id: acmeProject.id, limit: 2, offset: 0 });
    expect(list.json().count).toBeGreaterThanOrEqual(6);
    expect(list.json().deployments).toHaveLength(2);
    expect((await acme().get('/admin/dev-projects/deployments?project_id=999999')).status).toBe(404);
    expect((await acme().get('/admin/dev-projects/deployments/999999')).status).toBe(404);
    expect((await acme().get('/admin/dev-projects/deployments/abc')).status).toBe(400);
    // A globex deployment id is not visible on acme's host.
    const globexList = (await globex().get('/admin/dev-projects/deployments?project_id=2')).json();
    const theirs = globexList.deployments[0].id;
    const mine = (await acme().get(`/admin/dev-projects/deployments/${theirs}`)).json();
    expect(mine.deployment?.environment ?? null).not.toBe('globex');
  });
});

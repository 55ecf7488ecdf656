import { generateSecrets } from '@aplt/config';
import { ASSERTION_HEADER, AssertionSigner } from '@aplt/http';
import { staticFeatureSource } from '@aplt/licensing';
import { testSecrets, viaProxy } from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type DevprojectsHarness, gitCli } from './helpers';

const SERVICE_TOKEN = testSecrets().SERVICE_TOKEN;

describe('dev projects', () => {
  let h: DevprojectsHarness;
  let app: Awaited<ReturnType<DevprojectsHarness['build']>>;
  let token: string;
  const host = 'acme.localhost';

  const call = (method: 'GET' | 'POST', url: string, body?: unknown, auth = token) =>
    app.inject({
      method,
      url,
      headers: { ...viaProxy(host), authorization: `Bearer ${auth}` },
      ...(body === undefined ? {} : { payload: body as object }),
    });

  beforeAll(async () => {
    h = await createHarness(['acme', 'globex']);
    app = await h.build();
    token = await h.adminToken('acme');
  });

  afterAll(async () => {
    await app?.close();
    await h?.cleanup();
  });

  it('refuses callers without an admin token of this tenant', async () => {
    const none = await app.inject({ method: 'GET', url: '/admin/dev-projects', headers: viaProxy(host) });
    expect(none.statusCode).toBe(401);
    const foreign = await call('GET', '/admin/dev-projects', undefined, await h.adminToken('globex'));
    expect(foreign.statusCode).toBe(401);
  });

  it('refuses a request that did not pass the access service, even with a good admin token', async () => {
    const forged = new AssertionSigner(generateSecrets().ACCESS_ASSERTION_PRIVATE_KEY).sign({
      sub: 'whitelist',
      host,
      tenant: 'acme',
      reason: 'whitelist',
      roles: [],
    });
    const attempts: Array<[string, Record<string, string>]> = [
      ['no assertion', { host }],
      ['forged', { host, [ASSERTION_HEADER]: forged }],
      ['for another host', { host, [ASSERTION_HEADER]: viaProxy('globex.localhost')[ASSERTION_HEADER]! }],
    ];
    for (const [what, headers] of attempts) {
      const res = await app.inject({
        method: 'GET',
        url: '/admin/dev-projects',
        headers: { ...headers, authorization: `Bearer ${token}` },
      });
      expect(res.statusCode, what).toBe(401);
      expect(res.json(), what).toEqual({
        type: 'unauthorized',
        message: 'This request did not pass the access service',
      });
    }
    expect((await call('GET', '/admin/dev-projects')).statusCode).toBe(200);
  });

  it('belongs to no licensed feature: a tenant with none of the 31 still reaches its dev projects', async () => {
    const unlicensed = await h.build({
      ...staticFeatureSource({ acme: [] }),
      start: async () => {},
      close: async () => {},
    });
    try {
      const res = await unlicensed.inject({
        method: 'GET',
        url: '/admin/dev-projects/version',
        headers: { ...viaProxy(host), authorization: `Bearer ${token}` },
      });
      expect(res.statusCode, res.body).toBe(200);
    } finally {
      await unlicensed.close();
    }
  });

  it('creates a project with a unique code and a real branch off main, authored by nobody but the bot', async () => {
    const res = await call('POST', '/admin/dev-projects', {
      name: 'Checkout rework',
      description: 'Rework the checkout',
      project_type: 'feature',
    });
    expect(res.statusCode).toBe(201);
    const p = res.json().dev_project;
    expect(p).toMatchObject({ status: 'draft', version: '0.1.0.0', project_type: 'feature', tenant: 'acme' });
    expect(p.project_code).toMatch(/^DP-\d{4,}$/);
    expect(p.branch_name).toBe(`dev-project/${p.project_code}`);
    const main = (await gitCli(h.gitDir('acme'), 'rev-parse', 'refs/heads/main')).trim();
    expect((await gitCli(h.gitDir('acme'), 'rev-parse', `refs/heads/${p.branch_name}`)).trim()).toBe(main);
    expect((await gitCli(h.gitDir('acme'), 'log', '-1', '--format=%an <%ae>', 'main')).trim()).toBe(
      'APLT Dev Bot <devbot@aplt.localhost>',
    );

    const second = await call('POST', '/admin/dev-projects', { name: 'Other', project_type: 'bugfix' });
    expect(second.json().dev_project.project_code).not.toBe(p.project_code);

    const byCode = await call('GET', `/admin/dev-projects?code=${p.project_code}`);
    expect(byCode.json().dev_project.id).toBe(p.id);
    const byId = await call('GET', `/admin/dev-projects?id=${p.id}`);
    expect(byId.json().dev_project.project_code).toBe(p.project_code);
    const list = await call('GET', '/admin/dev-projects');
    expect(list.json().count).toBe(2);
    expect((await call('GET', '/admin/dev-projects?id=999999')).statusCode).toBe(404);
  });

  it('rejects bad input with the stable error body and changes nothing', async () => {
    const bad = await call('POST', '/admin/dev-projects', { name: 'x', project_type: 'rewrite' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ type: 'invalid_data' });
    const { json } = await call('GET', '/admin/dev-projects?limit=1').then((r) => ({ json: r.json() }));
    const id = json.dev_projects[0].id;
    const escape = await call('POST', '/admin/dev-projects/commit', {
      project_id: id,
      message: 'evil',
      files: [{ file_path: '../outside.txt', content: 'x' }],
    });
    expect(escape.statusCode).toBe(400);
    const gitDir = await call('POST', '/admin/dev-projects/files', {
      project_id: id,
      files: [{ file_path: 'a/.git/config', change_type: 'added' }],
    });
    expect(gitDir.statusCode).toBe(400);
    expect(
      (
        await call('POST', '/admin/dev-projects/files', {
          project_id: 424242,
          files: [{ file_path: 'a', change_type: 'added' }],
        })
      ).statusCode,
    ).toBe(404);
  });

  it('commits files on the branch as the bot, diffs, browses, and moves status and version', async () => {
    const p = (
      await call('POST', '/admin/dev-projects', { name: 'Search', project_type: 'enhancement' })
    ).json().dev_project;
    const files = await call('POST', '/admin/dev-projects/files', {
      project_id: p.id,
      files: [{ file_path: 'src/search.ts', change_type: 'added' }],
    });
    expect(files.statusCode).toBe(200);
    expect(files.json().files).toEqual([
      expect.objectContaining({ file_path: 'src/search.ts', change_type: 'added' }),
    ]);

    const commit = await call('POST', '/admin/dev-projects/commit', {
      project_id: p.id,
      message: 'Add search',
      files: [
        { file_path: 'src/search.ts', content: 'export const search = 1;\n' },
        { file_path: 'README.md', content: '# Search\n' },
      ],
    });
    expect(commit.statusCode).toBe(201);
    expect(commit.json()).toMatchObject({ branch: p.branch_name, version: '0.1.0.1', status: 'in_progress' });
    const sha = commit.json().sha;
    expect((await gitCli(h.gitDir('acme'), 'rev-parse', `refs/heads/${p.branch_name}`)).trim()).toBe(sha);
    expect((await gitCli(h.gitDir('acme'), 'log', '-1', '--format=%an|%cn|%s', sha)).trim()).toBe(
      'APLT Dev Bot|APLT Dev Bot|Add search',
    );
    expect(await gitCli(h.gitDir('acme'), 'show', `${sha}:src/search.ts`)).toBe('export const search = 1;\n');
    // main is untouched: the branch is the only thing that moved.
    expect(await gitCli(h.gitDir('acme'), 'ls-tree', '-r', '--name-only', 'main')).toBe('');

    const same = await call('POST', '/admin/dev-projects/commit', {
      project_id: p.id,
      message: 'No change',
      files: [{ file_path: 'README.md', content: '# Search\n' }],
    });
    expect(same.statusCode).toBe(422);

    const diff = await call('GET', `/admin/dev-projects/diff?project_id=${p.id}`);
    expect(diff.statusCode).toBe(200);
    expect(diff.json().files).toEqual([
      { path: 'README.md', status: 'added', additions: 1, deletions: 0 },
      { path: 'src/search.ts', status: 'added', additions: 1, deletions: 0 },
    ]);
    expect(diff.json().patch).toContain('+export const search = 1;');

    const root = await call('GET', `/admin/dev-projects/browse?project_id=${p.id}`);
    expect(root.json().type).toBe('tree');
    expect(root.json().entries.map((e: { name: string; type: string }) => `${e.type}:${e.name}`)).toEqual([
      'blob:README.md',
      'tree:src',
    ]);
    const file = await call('GET', `/admin/dev-projects/browse?project_id=${p.id}&path=src/search.ts`);
    expect(file.json()).toMatchObject({
      type: 'blob',
      encoding: 'utf8',
      content: 'export const search = 1;\n',
    });
    expect((await call('GET', `/admin/dev-projects/browse?project_id=${p.id}&path=nope`)).statusCode).toBe(
      404,
    );

    const del = await call('POST', '/admin/dev-projects/commit', {
      project_id: p.id,
      message: 'Drop readme',
      files: [{ file_path: 'README.md', delete: true }],
    });
    expect(del.json().version).toBe('0.1.0.2');

    const status = await call('GET', `/admin/dev-projects/status?project_id=${p.id}`);
    expect(status.statusCode).toBe(200);
    const s = status.json();
    expect(s.git).toMatchObject({ branch: p.branch_name, ahead: 2, behind: 0 });
    expect(s.git.last_commit.subject).toBe('Drop readme');
    expect(s.dev_project.status).toBe('in_progress');
    expect(s.allowed_moves).toEqual(['testing']);
    expect(s.changelog.map((c: { action: string }) => c.action)).toEqual([
      'committed',
      'committed',
      'files_recorded',
      'created',
    ]);
    expect(s.files).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ file_path: 'src/search.ts', change_type: 'added' }),
        expect.objectContaining({ file_path: 'README.md', change_type: 'deleted' }),
      ]),
    );
  });

  it("lists the branch's own commits, newest first, without main's", async () => {
    const p = (await call('POST', '/admin/dev-projects', { name: 'Log', project_type: 'feature' })).json()
      .dev_project;
    const empty = await call('GET', `/admin/dev-projects/commits?project_id=${p.id}`);
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ project_id: p.id, branch: p.branch_name, commits: [] });
    const shas: string[] = [];
    for (const [i, message] of ['First change', 'Second change'].entries()) {
      const c = await call('POST', '/admin/dev-projects/commit', {
        project_id: p.id,
        message,
        files: [{ file_path: 'notes.md', content: `version ${i}\n` }],
      });
      expect(c.statusCode).toBe(201);
      shas.push(c.json().sha);
    }
    const log = await call('GET', `/admin/dev-projects/commits?project_id=${p.id}`);
    expect(log.statusCode).toBe(200);
    expect(log.json().commits.map((c: { sha: string; subject: string }) => [c.sha, c.subject])).toEqual([
      [shas[1], 'Second change'],
      [shas[0], 'First change'],
    ]);
    expect(log.json().commits[0]).toMatchObject({ author: 'APLT Dev Bot' });
    expect(Number.isNaN(Date.parse(log.json().commits[0].date))).toBe(false);
    const one = await call('GET', `/admin/dev-projects/commits?project_id=${p.id}&limit=1`);
    expect(one.json().commits).toHaveLength(1);
    expect((await call('GET', '/admin/dev-projects/commits?project_id=999999')).statusCode).toBe(404);
    expect((await call('GET', '/admin/dev-projects/commits?project_id=x')).statusCode).toBe(400);
  });

  it('commits to different branches at the same time without losing either', async () => {
    const projects = await Promise.all(
      [1, 2, 3, 4].map(
        async (i) =>
          (await call('POST', '/admin/dev-projects', { name: `Par ${i}`, project_type: 'feature' })).json()
            .dev_project,
      ),
    );
    const results = await Promise.all(
      projects.map((p, i) =>
        call('POST', '/admin/dev-projects/commit', {
          project_id: p.id,
          message: `Parallel ${i}`,
          files: [{ file_path: `file-${i}.txt`, content: `content ${i}\n` }],
        }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual([201, 201, 201, 201]);
    for (const [i, p] of projects.entries()) {
      expect(
        (
          await gitCli(h.gitDir('acme'), 'ls-tree', '-r', '--name-only', `refs/heads/${p.branch_name}`)
        ).trim(),
      ).toBe(`file-${i}.txt`);
    }
  });

  it('writes changelog entries', async () => {
    const p = (await call('GET', '/admin/dev-projects?limit=1')).json().dev_projects[0];
    const res = await call('POST', '/admin/dev-projects/changelog', {
      project_id: p.id,
      action: 'note',
      description: 'Reviewed with the customer',
      changed_by: 'Dana',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().entry).toMatchObject({ action: 'note', changed_by: 'Dana' });
    const bad = await call('POST', '/admin/dev-projects/changelog', {
      project_id: p.id,
      action: 'DROP TABLE',
      description: '',
    });
    expect(bad.statusCode).toBe(400);
  });

  it('rebuilds through the queue: deployment log, testing, then deployed with patch + 1', async () => {
    const p = (
      await call('POST', '/admin/dev-projects', { name: 'Deploy me', project_type: 'feature' })
    ).json().dev_project;
    const draft = await call('POST', '/admin/dev-projects/rebuild', { project_id: p.id, tenant: 'acme' });
    expect(draft.statusCode).toBe(409);
    await call('POST', '/admin/dev-projects/commit', {
      project_id: p.id,
      message: 'Work',
      files: [
        { file_path: 'app.ts', content: 'ok\n' },
        {
          file_path: 'package.json',
          content: JSON.stringify({ private: true, scripts: { build: 'node build.mjs' } }),
        },
        {
          file_path: 'build.mjs',
          content:
            "import { mkdirSync, writeFileSync } from 'node:fs';\nmkdirSync('dist');\nwriteFileSync('dist/index.html', 'ok');\nconsole.log('built app.ts');\n",
        },
      ],
    });
    const unknown = await call('POST', '/admin/dev-projects/rebuild', { project_id: p.id, tenant: 'nobody' });
    expect(unknown.statusCode).toBe(422);

    // A tenant's admin rebuilds that tenant, never another one.
    const other = await call('POST', '/admin/dev-projects/rebuild', { project_id: p.id, tenant: 'globex' });
    expect(other.statusCode).toBe(403);
    const res = await call('POST', '/admin/dev-projects/rebuild', { project_id: p.id, tenant: 'acme' });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({
      status: 'testing',
      deployment: { status: 'started', environment: 'acme' },
    });
    const head = (await gitCli(h.gitDir('acme'), 'rev-parse', `refs/heads/${p.branch_name}`)).trim();
    expect(res.json().deployment.commit_sha).toBe(head);
    expect((await call('GET', `/admin/dev-projects?id=${p.id}`)).json().dev_project.status).toBe('testing');

    const job = await h.queue.queue('rebuild').getJob(res.json().job_id);
    expect(job?.data).toMatchObject({ tenantId: 'acme', projectId: p.id, targetTenant: 'acme' });
    const worker = h.startWorker();
    const { QueueEvents } = await import('bullmq');
    const events = new QueueEvents('rebuild', { connection: { url: h.redis.url }, prefix: h.redis.prefix });
    try {
      await events.waitUntilReady();
      const fresh = await h.queue.queue('rebuild').getJob(res.json().job_id);
      if (!(await fresh?.isCompleted())) await fresh?.waitUntilFinished(events);
    } finally {
      await events.close();
      await worker.close();
    }

    const status = (await call('GET', `/admin/dev-projects/status?project_id=${p.id}`)).json();
    expect(status.dev_project).toMatchObject({ status: 'deployed', version: '0.1.1.1' });
    expect(status.dev_project.deployed_at).not.toBeNull();
    expect(status.deployments[0]).toMatchObject({
      status: 'succeeded',
      environment: 'acme',
      commit_sha: head,
    });
    expect(status.deployments[0]).toMatchObject({ exit_code: 0, preview: true, output_dir: 'dist' });
    expect(status.deployments[0].log).toContain('$ npm run build');
    expect(status.deployments[0].log).toContain('built app.ts');
    expect(status.changelog[0].action).toBe('deployed');
  });

  it('fails a rebuild whose commit is gone back to in_progress, and reports a vanished branch as 409', async () => {
    const p = (await call('POST', '/admin/dev-projects', { name: 'Fragile', project_type: 'bugfix' })).json()
      .dev_project;
    await call('POST', '/admin/dev-projects/commit', {
      project_id: p.id,
      message: 'Work',
      files: [{ file_path: 'x.txt', content: 'x\n' }],
    });
    const res = await call('POST', '/admin/dev-projects/rebuild', { project_id: p.id, tenant: 'acme' });
    expect(res.statusCode).toBe(202);
    // The pinned commit no longer exists (e.g. the repository was replaced from a backup).
    await h.fleet.tenantDbs
      .get('acme')!
      .aplt.db.updateTable('aplt_deployment_logs')
      .set({ commit_sha: 'f'.repeat(40) })
      .where('id', '=', res.json().deployment.id)
      .execute();
    const worker = h.startWorker();
    const { QueueEvents } = await import('bullmq');
    const events = new QueueEvents('rebuild', { connection: { url: h.redis.url }, prefix: h.redis.prefix });
    try {
      await events.waitUntilReady();
      const job = await h.queue.queue('rebuild').getJob(res.json().job_id);
      if (!(await job?.isCompleted())) await job?.waitUntilFinished(events);
    } finally {
      await events.close();
      await worker.close();
    }
    const status = (await call('GET', `/admin/dev-projects/status?project_id=${p.id}`)).json();
    expect(status.dev_project).toMatchObject({
      status: 'in_progress',
      version: '0.1.0.1',
      deployed_at: null,
    });
    expect(status.deployments[0]).toMatchObject({ status: 'failed' });
    expect(status.changelog[0].action).toBe('rebuild_failed');

    await gitCli(h.gitDir('acme'), 'update-ref', '-d', `refs/heads/${p.branch_name}`);
    const diff = await call('GET', `/admin/dev-projects/diff?project_id=${p.id}`);
    expect(diff.statusCode).toBe(409);
    expect(diff.json()).toMatchObject({ type: 'conflict', reason: 'branch_missing' });
  });

  it('reports version information', async () => {
    const res = await call('GET', '/admin/dev-projects/version');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ service: 'devprojects', version_format: 'major.minor.patch.build' });
    expect(res.json().git).toMatch(/^git version /);
  });

  it('creates one project per ticket on the internal path, only with the service token', async () => {
    const body = {
      tenant: 'globex',
      ticket_id: 7,
      ticket_number: 'TCK-000007',
      name: 'Broken login',
      description: 'It breaks',
      project_type: 'bugfix',
      priority: 'critical',
    };
    const attempt = (headers: Record<string, string>) =>
      app.inject({ method: 'POST', url: '/internal/dev-projects/from-ticket', headers, payload: body });
    const refusals: Array<[string, Record<string, string>]> = [
      ['no token', {}],
      ['a wrong token', { authorization: 'Bearer wrong' }],
      ['a longer token', { authorization: `Bearer ${SERVICE_TOKEN}x` }],
      ['a non-ASCII token', { authorization: 'Bearer ünïcödé' }],
      // Neither an admin token nor the proxy's assertion stands in for the service token.
      ['an admin token', { ...viaProxy(host), authorization: `Bearer ${token}` }],
    ];
    for (const [what, headers] of refusals) {
      const denied = await attempt(headers);
      expect(denied.statusCode, what).toBe(401);
      expect(denied.json(), what).toEqual({ type: 'unauthorized', message: 'Service token required' });
    }
    const post = () =>
      app.inject({
        method: 'POST',
        url: '/internal/dev-projects/from-ticket',
        headers: { authorization: `Bearer ${SERVICE_TOKEN}` },
        payload: body,
      });
    const first = await post();
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      created: true,
      base_url: 'http://globex.localhost:8080',
      dev_project: { ticket_id: 7, ticket_number: 'TCK-000007', priority: 'critical', tenant: 'globex' },
    });
    const again = await post();
    expect(again.statusCode).toBe(200);
    expect(again.json().dev_project.id).toBe(first.json().dev_project.id);
    // It lives in globex's database, not acme's.
    const globexToken = await h.adminToken('globex');
    const inGlobex = await app.inject({
      method: 'GET',
      url: `/admin/dev-projects?code=${first.json().dev_project.project_code}`,
      headers: { ...viaProxy('globex.localhost'), authorization: `Bearer ${globexToken}` },
    });
    expect(inGlobex.statusCode).toBe(200);
  });
});

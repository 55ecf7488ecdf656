import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAccessAppForTest } from '@aplt/service-access/testing';
import { launchChromium, startTestProxy, type TestProxy } from '@aplt/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeedContext } from '../../../deploy/fleet/seeds';
import { devProjectsNotes, seedDevProjects } from '../../../deploy/fleet/seeds/devprojects';
import { createHarness, type DevprojectsHarness } from './helpers';

const SHOTS = fileURLToPath(new URL('../../../.run/screenshots/devprojects/', import.meta.url));

/** Issue #16's "Done when": a rebuild of the demo dev project serves its built preview. */
describe('the demo dev project', () => {
  let h: DevprojectsHarness;
  let proxy: TestProxy;
  let token: string;
  const notes: string[] = [];

  beforeAll(async () => {
    h = await createHarness(['acme']);
    proxy = await startTestProxy({
      access: await createAccessAppForTest(h.fleet.registry),
      devprojects: await h.build(),
    });
    token = await h.adminToken('acme');
  });

  afterAll(async () => {
    await proxy?.stop();
    await h?.cleanup();
  });

  const seedContext = () =>
    ({
      registry: h.fleet.registry,
      databases: h.fleet.databases,
      env: h.env,
      domain: 'localhost',
      proxyPort: 8080,
      log: () => {},
      notes,
    }) as unknown as SeedContext;
  // The fleet runs a step's seed only once, and its banner notes on every start.
  const seed = async () => {
    await seedDevProjects(seedContext());
    await devProjectsNotes(seedContext());
  };

  it('is seeded once with a buildable branch, and a rebuild through the proxy serves its site', async () => {
    await seed();
    await seed();
    const auth = { authorization: `Bearer ${token}` };
    const list = (await proxy.request('acme.localhost', '/admin/dev-projects', { headers: auth })).json();
    expect(list.count).toBe(1);
    const project = list.dev_projects[0];
    expect(project).toMatchObject({ name: 'Demo landing page', status: 'in_progress' });
    expect(notes.at(-1)).toContain(
      `http://${project.project_code.toLowerCase()}.preview.acme.localhost:8080/`,
    );

    const res = await proxy.request('acme.localhost', '/admin/dev-projects/rebuild', {
      method: 'POST',
      headers: auth,
      body: { project_id: project.id, tenant: 'acme' },
    });
    expect(res.status, res.text()).toBe(202);
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
    const status = (
      await proxy.request('acme.localhost', `/admin/dev-projects/status?project_id=${project.id}`, {
        headers: auth,
      })
    ).json();
    expect(status.last_deployment).toMatchObject({ status: 'succeeded', exit_code: 0, preview: true });
    expect(status.last_deployment.log).toContain('wrote dist/index.html');

    const host = `${project.project_code.toLowerCase()}.preview.acme.localhost`;
    const page = await proxy.request(host, '/');
    expect(page.status).toBe(200);
    expect(page.text()).toContain('<h1>Your logo on everything</h1>');
    expect(page.text()).toMatch(/Built \d{4}-\d\d-\d\dT.* with Node v\d+/);
    expect((await proxy.request(host, '/style.css')).headers['content-type']).toBe('text/css; charset=utf-8');
    expect((await proxy.request(host, '/about/')).text()).toContain('About us');

    // As a person sees it: Chromium through the proxy (it resolves *.localhost itself).
    const chromium = await launchChromium();
    try {
      const tab = await chromium.browser.newPage();
      const errors: string[] = [];
      tab.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      await tab.setViewport({ width: 1000, height: 600 });
      const nav = await tab.goto(`http://${host}:${proxy.port}/`, { waitUntil: 'load' });
      expect(nav?.status()).toBe(200);
      // The stylesheet applied: the heading has the site's colour.
      expect(await tab.$eval('h1', (el) => getComputedStyle(el).color)).toBe('rgb(15, 118, 110)');
      await mkdir(SHOTS, { recursive: true });
      await tab.screenshot({ path: join(SHOTS, 'preview-demo.png') });
      await tab.click('header a');
      await tab.waitForSelector('main h1');
      expect(await tab.$eval('main h1', (el) => el.textContent)).toBe('About us');
      expect(errors).toEqual([]);
    } finally {
      await chromium.close();
    }
  });
});

import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { bundlePackage } from '../build/bundle';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Each service with its process entries, as its `build` script names them. */
const services = readdirSync(path.join(root, 'services'), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'services', d.name, 'package.json'), 'utf8'));
    const script: string = pkg.scripts?.build ?? '';
    return {
      name: d.name,
      entries: script.split(/\s+/).filter((a) => a.endsWith('.ts') && !a.endsWith('bundle.ts')),
    };
  });
// Inside each package, as dist/ is: the bundle finds files it ships from the package's folder.
const outdirOf = (service: string) => path.join(root, 'services', service, `.test-bundle-${process.pid}`);
afterAll(() => {
  for (const s of services) rmSync(outdirOf(s.name), { recursive: true, force: true });
});

/**
 * The compiled fleet's bundles load under plain Node, without tsx: every import resolves (ES
 * modules link before any code runs, so reaching the service's own configuration check proves
 * the whole graph loaded), and no third-party import is left for Node to look up by name from a
 * folder where pnpm's layout would not find it.
 */
describe('service bundles (deploy/build/bundle.ts)', () => {
  it('covers every service process', () => {
    for (const s of services) expect(s.entries, `${s.name}'s build script`).toContain('src/server.ts');
    expect(services.find((s) => s.name === 'catalog')?.entries).toContain('src/worker.ts');
  });

  it.each(services)(
    '$name: links under plain node and stops at its configuration check',
    async ({ name, entries }) => {
      const outdir = outdirOf(name);
      await bundlePackage(path.join(root, 'services', name), entries, outdir);
      for (const entry of entries) {
        const bundle = path.join(outdir, `${path.basename(entry, '.ts')}.mjs`);
        const code = readFileSync(bundle, 'utf8');
        const bare = [...code.matchAll(/\bfrom\s+"([^"]+)"|\bimport\("([^"]+)"\)/g)]
          .map((m) => m[1] ?? m[2]!)
          .filter((s) => !s.startsWith('.') && !s.startsWith('node:'));
        expect(bare, `bare imports in ${name}/${entry}`).toEqual([]);
        // An empty environment: every process refuses it with its list of missing variables.
        const run = spawnSync(process.execPath, [bundle], {
          env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production' },
          encoding: 'utf8',
          timeout: 60_000,
        });
        expect(run.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND|Cannot find (package|module)/);
        expect(run.stderr).toMatch(/Invalid environment/);
        expect(run.status, run.stderr).toBe(1);
      }
    },
    120_000,
  );
});

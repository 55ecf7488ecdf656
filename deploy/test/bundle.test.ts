import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { bundlePackage, INLINED, latin1Only } from '../build/bundle';

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
 * What a bundle asks Node to load: its top-level import statements (esbuild writes each at the
 * start of a line, and inlined libraries' comments quote SQL like `from "person"`) and its dynamic
 * imports of a string.
 */
function importsOf(code: string): string[] {
  const statements = [...code.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+"([^"]+)";?$/gm)];
  const dynamic = [...code.matchAll(/\bimport\("([^"]+)"\)/g)];
  return [...statements, ...dynamic].map((m) => m[1]!);
}

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
        const specifiers = importsOf(code);
        const bare = specifiers.filter((s) => !s.startsWith('.') && !s.startsWith('node:'));
        expect(bare, `bare imports in ${name}/${entry}`).toEqual([]);
        // The inlined libraries are in the bundle, never loaded beside it from node_modules.
        const loaded = specifiers
          .map((s) => /node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules)/.exec(s)?.[1])
          .filter((p) => p !== undefined && INLINED.has(p));
        expect(loaded, `inlined libraries imported by ${name}/${entry}`).toEqual([]);
        // Latin-1 throughout, so V8 holds the source at one byte per character (latin1Only).
        expect(/[\u0100-\uffff]/.exec(code)?.[0], `a wide character in ${name}/${entry}`).toBeUndefined();
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

  it('writes characters beyond Latin-1 as escapes that mean the same in a regular expression or string', () => {
    const code =
      "[/(eur|\u20ac)\\s*(\\d+)/u.exec('\u20ac 12')?.[2], '\u2014 \ud83d\ude00', /[\u00e9\u2013]/.test('\u2013')] // \u2014 note";
    const escaped = latin1Only(code);
    expect(escaped).not.toMatch(/[\u0100-\uffff]/);
    expect(escaped).toContain('\u00e9');
    expect(new Function(`return ${escaped}`)()).toEqual(['12', '\u2014 \ud83d\ude00', true]);
  });

  it('as a package build script, writes the bundle and says so (turbo caches whatever it leaves)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'bundle-cli-'));
    try {
      writeFileSync(path.join(dir, 'server.ts'), "console.log('served \u20ac');\n");
      // tsx by path: this package folder is outside the workspace.
      const tsx = pathToFileURL(path.join(root, 'node_modules/tsx/dist/loader.mjs')).href;
      const bundler = path.join(root, 'deploy/build/bundle.ts');
      const run = spawnSync(process.execPath, ['--import', tsx, bundler, 'server.ts'], {
        cwd: dir,
        encoding: 'utf8',
      });
      expect(run.stdout, run.stderr).toContain('bundled server.ts -> dist/');
      const out = spawnSync(process.execPath, [path.join(dir, 'dist', 'server.mjs')], { encoding: 'utf8' });
      expect(out.stdout).toBe('served \u20ac\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a library left to Node that imports an inlined one (Node would load a second copy)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'bundle-twice-'));
    try {
      const lib = path.join(dir, 'node_modules', 'uses-zod');
      mkdirSync(lib, { recursive: true });
      writeFileSync(
        path.join(lib, 'package.json'),
        JSON.stringify({ name: 'uses-zod', main: 'index.js', dependencies: { zod: '^4' } }),
      );
      writeFileSync(path.join(lib, 'index.js'), "module.exports = require('zod');\n");
      writeFileSync(path.join(dir, 'entry.ts'), "import z from 'uses-zod';\nconsole.log(z);\n");
      await expect(bundlePackage(dir, ['entry.ts'])).rejects.toThrow(/uses-zod .*depends on zod/);
      // The same library without that dependency is left to Node as usual.
      writeFileSync(path.join(lib, 'package.json'), JSON.stringify({ name: 'uses-zod', main: 'index.js' }));
      await bundlePackage(dir, ['entry.ts']);
      expect(readFileSync(path.join(dir, 'dist', 'entry.mjs'), 'utf8')).toContain(
        'node_modules/uses-zod/index.js',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

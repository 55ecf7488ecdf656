/**
 * The compiled fleet: one esbuild bundle per process entry of a package (services/<name>/src/
 * server.ts and worker.ts, the fleet runner's main.ts), run with plain `node dist/<entry>.mjs`.
 *
 * Our own workspace packages export TypeScript source, so they are bundled in. Every other
 * package stays external, as Node would load it, but pnpm's strict layout means a dependency of
 * `@aplt/db` is not resolvable from `services/catalog/dist/`: each external import is resolved
 * where its importer lives (with Node's own conditions) and written as a relative path from the
 * output folder to that file. The bundle therefore runs where it was built, inside the same
 * `node_modules` (the compose image builds it after `pnpm install`, like the start command).
 *
 * Run from a package folder with its entries: `tsx ../../deploy/build/bundle.ts src/server.ts`
 * (each package's `build` script; turbo's `build` task runs them).
 */
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';

const WORKSPACE_SCOPE = '@aplt/';
const builtins = new Set(builtinModules);

function isBuiltin(specifier: string): boolean {
  return specifier.startsWith('node:') || builtins.has(specifier.split('/')[0] ?? specifier);
}

/** Leaves third-party packages to Node, addressed by file so pnpm's layout does not matter. */
function externalPackagesByFile(outdir: string): Plugin {
  return {
    name: 'external-packages-by-file',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData === 'inner' || isBuiltin(args.path)) return undefined;
        if (args.path.startsWith(WORKSPACE_SCOPE)) return undefined;
        const found = await b.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          importer: args.importer,
          pluginData: 'inner',
        });
        if (found.errors.length > 0) return { errors: found.errors };
        let relative = path.relative(outdir, found.path).split(path.sep).join('/');
        if (!relative.startsWith('.')) relative = `./${relative}`;
        return { path: relative, external: true };
      });
    },
  };
}

/** Bundles each process entry of a package (paths relative to it) into `outdir/<name>.mjs`. */
export async function bundlePackage(
  packageDir: string,
  entries: string[],
  outdir = path.join(packageDir, 'dist'),
): Promise<string[]> {
  if (entries.length === 0) throw new Error('name the process entries to bundle (src/server.ts ...)');
  const entryPoints = entries.map((e) => path.join(packageDir, e));
  for (const e of entryPoints) if (!existsSync(e)) throw new Error(`${e} does not exist`);
  await rm(outdir, { recursive: true, force: true });
  await build({
    entryPoints,
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Node's conditions, not esbuild's default `module`: an external resolved here must be the
    // same file Node would load from inside another package, or a class would exist twice.
    conditions: [],
    mainFields: ['main'],
    sourcemap: 'linked',
    sourcesContent: false,
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [externalPackagesByFile(outdir)],
  });
  return entryPoints.map((e) => path.relative(packageDir, e));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.cwd();
  const built = await bundlePackage(dir, process.argv.slice(2));
  console.log(`bundled ${built.join(', ')} -> ${path.relative(process.cwd(), path.join(dir, 'dist'))}/`);
}

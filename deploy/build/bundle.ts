/**
 * The compiled fleet: one esbuild bundle per process entry of a package (services/<name>/src/
 * server.ts and worker.ts, the fleet runner's main.ts), run with plain `node dist/<entry>.mjs`.
 *
 * Our own workspace packages export TypeScript source, so they are bundled in, and so are the
 * pure-ES-module libraries of `INLINED` (see there). Every other package stays external, as Node
 * would load it, but pnpm's strict layout means a dependency of
 * `@aplt/db` is not resolvable from `services/catalog/dist/`: each external import is resolved
 * where its importer lives (with Node's own conditions) and written as a relative path from the
 * output folder to that file. The bundle therefore runs where it was built, inside the same
 * `node_modules` (the compose image builds it after `pnpm install`, like the start command).
 *
 * Run from a package folder with its entries: `tsx ../../deploy/build/bundle.ts src/server.ts`
 * (each package's `build` script; turbo's `build` task runs them).
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';

const WORKSPACE_SCOPE = '@aplt/';
const builtins = new Set(builtinModules);

/**
 * Third-party libraries bundled in like our own code. Loaded by Node, each is hundreds of small ES
 * modules (kysely 262, zod 95, jose 46), and every module costs a resident process its own
 * records besides its code: inlined, a service holds 4-8 MB less at rest. Only libraries that no
 * external package imports in turn (the build refuses one that does, since Node would then load a
 * second copy beside the bundled one, and an `instanceof` across the two would fail) and that
 * read no files of their own.
 */
export const INLINED = new Set(['zod', 'fastify-type-provider-zod', 'kysely', 'jose']);

function isBuiltin(specifier: string): boolean {
  return specifier.startsWith('node:') || builtins.has(specifier.split('/')[0] ?? specifier);
}

/** `@scope/name/sub` -> `@scope/name`, `name/sub` -> `name`. */
export function packageNameOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

/** The nearest package.json above a resolved file, with the packages it depends on. */
function dependenciesOfFileAt(file: string, cache: Map<string, string[]>): string[] {
  for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    const cached = cache.get(manifest);
    if (cached) return cached;
    if (!existsSync(manifest)) continue;
    const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as {
      name?: string;
      dependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
    };
    // A package's dist/ may carry a package.json of its own with only `type` in it.
    if (!pkg.name) continue;
    const deps = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})];
    cache.set(manifest, deps);
    return deps;
  }
  return [];
}

/** Leaves third-party packages to Node, addressed by file so pnpm's layout does not matter. */
function externalPackagesByFile(outdir: string): Plugin {
  const manifests = new Map<string, string[]>();
  return {
    name: 'external-packages-by-file',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData === 'inner' || isBuiltin(args.path)) return undefined;
        if (args.path.startsWith(WORKSPACE_SCOPE)) return undefined;
        if (INLINED.has(packageNameOf(args.path))) return undefined;
        const found = await b.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          importer: args.importer,
          pluginData: 'inner',
        });
        if (found.errors.length > 0) return { errors: found.errors };
        const twice = dependenciesOfFileAt(found.path, manifests).filter((d) => INLINED.has(d));
        if (twice.length > 0) {
          return {
            errors: [
              {
                text: `${args.path} stays external but depends on ${twice.join(', ')}, which the bundle inlines: Node would load a second copy`,
              },
            ],
          };
        }
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
  const { outputFiles } = await build({
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
    write: false,
  });
  await mkdir(outdir, { recursive: true });
  for (const file of outputFiles) {
    await writeFile(file.path, file.path.endsWith('.mjs') ? latin1Only(file.text) : file.text);
  }
  return entryPoints.map((e) => path.relative(packageDir, e));
}

/**
 * V8 keeps a script's source for the life of the process, at one byte per character only while
 * every character fits in Latin-1; one character beyond (an em dash in an inlined library's
 * comment) doubles the whole bundle's, 1.5-2 MB more per service. esbuild's ASCII charset escapes
 * most such characters but leaves some in comments and regular expression literals, where a
 * `\uXXXX` escape means the same character (a source map column after one on the same line moves).
 */
export function latin1Only(code: string): string {
  return code.replace(/[\u0100-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.cwd();
  const built = await bundlePackage(dir, process.argv.slice(2));
  console.log(`bundled ${built.join(', ')} -> ${path.relative(process.cwd(), path.join(dir, 'dist'))}/`);
}

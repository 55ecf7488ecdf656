// First-load JavaScript of the admin panel (gzip) beside Medusa's own admin as published in
// @medusajs/dashboard of the same major version (2.x, the line of @medusajs/js-sdk and
// @medusajs/ui 4 the panel uses). Goal of issue #14: under a quarter of Medusa's.
//
//   pnpm --filter @aplt/bench exec tsx admin-bundle.ts            (builds the panel into a temp dir)
//   ADMIN_BUNDLE_DIST=services/admin/web/dist pnpm --filter @aplt/bench exec tsx admin-bundle.ts
//
// Ours: Vite's manifest, the entry chunk plus every chunk it imports statically (what a browser
// must load before the first page can run; pages are lazy chunks and come on top), gzip level 9.
// Medusa's: the package's `import` entry (dist/app.mjs) plus every module it imports statically
// through relative paths, gzip level 9. The dashboard's dist leaves its npm dependencies (react,
// react-router, @medusajs/ui, tanstack, i18next, ...) as bare imports for the host app's bundler,
// so its figure leaves them out while ours includes them: the comparison favours Medusa.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const webDir = path.join(root, 'services', 'admin', 'web');
const gz = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

interface Chunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}

/** Our build: the entry and its static imports from .vite/manifest.json. */
function ours(dist: string) {
  const manifest = JSON.parse(readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8')) as Record<
    string,
    Chunk
  >;
  const entry = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
  if (!entry) throw new Error('no entry chunk in the manifest');
  const seen = new Set<string>();
  const walk = (key: string) => {
    if (seen.has(key) || !manifest[key]) return;
    seen.add(key);
    for (const i of manifest[key].imports ?? []) walk(i);
  };
  walk(entry);
  const files = [...seen].map((k) => path.join(dist, manifest[k]!.file));
  const login = manifest['src/routes/login/login.tsx'];
  const loginBytes = login ? gz(path.join(dist, login.file)) : 0;
  return { files: files.length, bytes: files.reduce((n, f) => n + gz(f), 0), loginBytes };
}

/** Medusa's published dashboard: dist/app.mjs and its relative static imports, recursively. */
function medusa() {
  const require = createRequire(import.meta.url);
  const pkgFile = require.resolve('@medusajs/dashboard/package.json');
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as {
    version: string;
    exports: Record<string, { import?: string }>;
  };
  const entry = path.join(path.dirname(pkgFile), pkg.exports['.']!.import!);
  const seen = new Set<string>();
  const bare = new Set<string>();
  // Static imports only: `import x from "..."`, `import "..."`, `export ... from "..."`; a dynamic
  // `import("...")` is a lazily loaded route of the dashboard and is left out, as ours are.
  const staticImport = /(?:^|[;\n])\s*(?:import|export)\s*(?:[^'"`;]*?\sfrom\s*)?["']([^"']+)["']/g;
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    for (const m of source.matchAll(staticImport)) {
      const spec = m[1]!;
      if (spec.startsWith('.')) walk(path.resolve(path.dirname(file), spec));
      else
        bare.add(
          spec
            .split('/')
            .slice(0, spec.startsWith('@') ? 2 : 1)
            .join('/'),
        );
    }
  };
  walk(entry);
  return {
    version: pkg.version,
    files: seen.size,
    bytes: [...seen].reduce((n, f) => n + gz(f), 0),
    bare: [...bare].sort(),
  };
}

let dist = process.env.ADMIN_BUNDLE_DIST ? path.resolve(root, process.env.ADMIN_BUNDLE_DIST) : '';
let temp: string | null = null;
if (!dist || !existsSync(path.join(dist, '.vite', 'manifest.json'))) {
  temp = mkdtempSync(path.join(tmpdir(), 'admin-bundle-'));
  dist = temp;
  console.log(`building the panel into ${dist} ...`);
  execFileSync(
    process.execPath,
    [path.join(webDir, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--outDir', dist, '--emptyOutDir'],
    { cwd: webDir, stdio: 'pipe' },
  );
}
try {
  const a = ours(dist);
  const m = medusa();
  const ratio = a.bytes / m.bytes;
  console.log(
    `admin panel (/app) first load: ${kib(a.bytes)} gzip in ${a.files} files (entry + static imports; the sign-in page's lazy chunk adds ${kib(a.loginBytes)})`,
  );
  console.log(
    `@medusajs/dashboard ${m.version} first load: ${kib(m.bytes)} gzip in ${m.files} files (dist/app.mjs + static imports; its ${m.bare.length} npm dependencies are not in its dist and not counted)`,
  );
  console.log(
    `ratio: ${(ratio * 100).toFixed(1)} % of Medusa's (goal: under 25 %) -> ${ratio < 0.25 ? 'met' : 'NOT met'}`,
  );
} finally {
  if (temp) rmSync(temp, { recursive: true, force: true });
}

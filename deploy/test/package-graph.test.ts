import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = fileURLToPath(new URL('../../', import.meta.url));

interface WorkspacePackage {
  name: string;
  /** Folder relative to the repository root, e.g. services/admin/web. */
  dir: string;
  /** Workspace packages it depends on, dependencies and devDependencies alike. */
  deps: string[];
}

/** Every package pnpm-workspace.yaml names ('packages/*' is each folder with a package.json). */
function workspacePackages(): WorkspacePackage[] {
  const { packages: globs } = parse(readFileSync(path.join(root, 'pnpm-workspace.yaml'), 'utf8')) as {
    packages: string[];
  };
  const dirs = globs.flatMap((glob) =>
    glob.endsWith('/*')
      ? readdirSync(path.join(root, glob.slice(0, -2)), { withFileTypes: true })
          .filter((d) => d.isDirectory())
          .map((d) => `${glob.slice(0, -2)}/${d.name}`)
      : [glob],
  );
  return dirs
    .filter((dir) => existsSync(path.join(root, dir, 'package.json')))
    .map((dir) => {
      const pkg = JSON.parse(readFileSync(path.join(root, dir, 'package.json'), 'utf8')) as {
        name: string;
        dependencies?: Record<string, string>;
        devDependencies?: Record<string, string>;
      };
      const deps = Object.entries({ ...pkg.dependencies, ...pkg.devDependencies })
        .filter(([, range]) => range.startsWith('workspace:'))
        .map(([name]) => name);
      return { name: pkg.name, dir, deps };
    });
}

/**
 * The dependency cycles of the graph, one per strongly connected component (Tarjan), each written
 * as its shortest loop through the component's first package, `a -> b -> a`, followed by all the
 * component's packages when the loop does not pass through every one.
 */
function cycles(graph: Map<string, string[]>): string[] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || graph.get(v)?.includes(v)) components.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return components.map((component) => {
    const start = component[0]!;
    const members = new Set(component);
    const previous = new Map<string, string>();
    const queue = [start];
    while (queue.length > 0) {
      const v = queue.shift()!;
      for (const w of graph.get(v) ?? []) {
        if (!members.has(w) || previous.has(w)) continue;
        previous.set(w, v);
        if (w === start) queue.length = 0;
        else queue.push(w);
      }
    }
    // Walked back from the start to itself: [n1, ..., nk, start] for start -> n1 -> ... -> start.
    const loop = [start];
    for (let v = previous.get(start)!; v !== start; v = previous.get(v)!) loop.unshift(v);
    const cycle = [start, ...loop].join(' -> ');
    return component.length > loop.length ? `${cycle} (one loop among ${component.join(', ')})` : cycle;
  });
}

const skippedFolders = new Set(['node_modules', 'dist', '.next', '.turbo', 'generated', 'public']);

function sourceFiles(dir: string, nested: Set<string>): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory())
      return skippedFolders.has(entry.name) || entry.name.startsWith('.test-bundle') || nested.has(full)
        ? []
        : sourceFiles(full, nested);
    return /\.(ts|tsx|mts|cts|js|mjs)$/.test(entry.name) ? [full] : [];
  });
}

/** Static, re-export, side-effect and dynamic imports. */
const importPattern =
  /\b(?:import|export)\s[^'";]*?\bfrom\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;

describe('workspace package graph', () => {
  const packages = workspacePackages();

  it('has no dependency cycle (dependencies and devDependencies)', () => {
    const names = new Set(packages.map((p) => p.name));
    const graph = new Map(packages.map((p) => [p.name, p.deps.filter((d) => names.has(d))]));
    expect(packages.length).toBeGreaterThan(20);
    expect(cycles(graph)).toEqual([]);
  });

  it('finds a cycle when there is one', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c', 'd']],
      ['c', ['a']],
      ['d', []],
      ['e', ['e']],
    ]);
    expect(cycles(graph)).toEqual(['a -> b -> c -> a', 'e -> e']);
  });

  /** Every relative import that resolves into another workspace package: importer, specifier, target. */
  function relativeReaches() {
    const dirs = packages.map((p) => path.join(root, p.dir));
    const ownerOf = (file: string) =>
      dirs.filter((d) => file.startsWith(d + path.sep)).sort((a, b) => b.length - a.length)[0];
    const reaches: { importer: string; file: string; specifier: string; owner: string; target: string }[] =
      [];
    for (const dir of dirs) {
      const nested = new Set(dirs.filter((d) => d !== dir && d.startsWith(dir + path.sep)));
      for (const file of sourceFiles(dir, nested)) {
        for (const m of readFileSync(file, 'utf8').matchAll(importPattern)) {
          const specifier = m[1] ?? m[2] ?? m[3]!;
          if (!specifier.startsWith('.')) continue;
          const target = path.resolve(path.dirname(file), specifier);
          const owner = ownerOf(target);
          if (owner === undefined || owner === dir) continue;
          reaches.push({
            importer: path.relative(root, dir),
            file: path.relative(root, file),
            specifier,
            owner: path.relative(root, owner),
            target: path.relative(root, target),
          });
        }
      }
    }
    return reaches;
  }

  it("no file imports another package's src by relative path (import its published entry by name)", () => {
    const intoSrc = relativeReaches()
      .filter((r) => r.target.startsWith(`${r.owner}/src/`))
      .map((r) => `${r.file}: ${r.specifier}`);
    expect(intoSrc).toEqual([]);
  });

  /**
   * Relative imports into another package's tests, benches or fleet seeds that predate this
   * check, as importer -> folder. Most are fixtures a test or bench shares; the services' tests
   * that take the fleet's demo seeds (deploy/fleet/seeds) as test data hide a loop the graph
   * above cannot see (deploy depends on the services). Each is to go, by a published testing
   * entry or by moving the test to deploy/test; none may be added, and one that is gone leaves
   * this list.
   */
  const knownReaches = [
    'apps/storefront -> deploy/fleet/seeds',
    'apps/storefront -> deploy/test',
    'bench -> apps/storefront/test',
    'bench -> deploy/build',
    'bench -> deploy/fleet',
    'bench -> deploy/fleet/seeds',
    'bench -> deploy/test',
    'bench -> services/access/bench',
    'bench -> services/auth/bench',
    'bench -> services/catalog/bench',
    'bench -> services/documents/test/output',
    'bench -> services/logo-modal/bench',
    'bench -> services/logo-modal/test',
    'deploy -> services/auth/test',
    'deploy -> services/catalog/test',
    'deploy -> services/documents/test',
    'services/admin -> deploy/fleet/seeds',
    'services/auth -> deploy/fleet/seeds',
    'services/catalog -> deploy/fleet/seeds',
    'services/devprojects -> deploy/fleet',
    'services/devprojects -> deploy/fleet/seeds',
    'services/documents -> deploy/fleet/seeds',
    'services/portal -> deploy/fleet/seeds',
  ];

  it('no relative import into another package beyond the known ones (listed above, to be removed)', () => {
    const seen = new Set(relativeReaches().map((r) => `${r.importer} -> ${path.dirname(r.target)}`));
    expect([...seen].sort()).toEqual(knownReaches);
  });
});

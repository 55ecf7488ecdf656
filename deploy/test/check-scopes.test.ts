import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * Lint, type-check and tests run two ways: per package through turbo (`pnpm check`, `pnpm turbo run
 * test`, cached) and once over the whole repository (`deploy/test.sh` and CI: `lint:repo`,
 * `typecheck:repo`, `vitest run`). These checks keep the two from drifting apart: a TypeScript file
 * one of them leaves out fails here.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));

interface Workspace {
  dir: string;
  scripts: Record<string, string>;
}

function workspaces(): Workspace[] {
  const { packages: globs } = parse(readFileSync(path.join(root, 'pnpm-workspace.yaml'), 'utf8')) as {
    packages: string[];
  };
  const dirs = globs.flatMap((glob) =>
    glob.endsWith('/*')
      ? execFileSync('git', ['ls-files', `${glob.slice(0, -2)}/*/package.json`], {
          cwd: root,
          encoding: 'utf8',
        })
          .split('\n')
          .filter((f) => f.split('/').length === 3)
          .map((f) => path.dirname(f))
      : [glob],
  );
  return dirs
    .filter((dir) => existsSync(path.join(root, dir, 'package.json')))
    .map((dir) => {
      const pkg = JSON.parse(readFileSync(path.join(root, dir, 'package.json'), 'utf8')) as {
        scripts?: Record<string, string>;
      };
      return { dir, scripts: pkg.scripts ?? {} };
    });
}

/** Tracked TypeScript files; declaration files are checked where they are imported. */
const tracked = execFileSync('git', ['ls-files', '*.ts', '*.tsx', '*.mts', '*.cts'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\n')
  .filter((f) => f !== '' && !/\.d\.[cm]?ts$/.test(f))
  // What ESLint and Prettier ignore (eslint.config.js, .prettierignore): fixtures and generated code.
  .filter(
    (f) => !/(^|\/)(fixtures|generated)\//.test(f) && !f.startsWith('packages/db/src/types/generated/'),
  );

/** The files the `include` of a tsconfig selects (relative to the repository root). */
function configFiles(config: string): Set<string> {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    path.join(root, config),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!parsed) throw new Error(`cannot read ${config}`);
  return new Set(parsed.fileNames.map((f) => path.relative(root, f)));
}

/** The tsconfigs a `tsc -p X && tsc -p Y` script checks, relative to the repository root. */
function scriptConfigs(dir: string, script: string): string[] {
  return [...script.matchAll(/\btsc -p (\S+)/g)].map((m) => {
    const target = path.join(dir, m[1]!);
    return target.endsWith('.json') ? target : path.join(target, 'tsconfig.json');
  });
}

const packages = workspaces();
const ownerOf = (file: string) =>
  packages.filter((p) => file.startsWith(`${p.dir}/`)).sort((a, b) => b.dir.length - a.dir.length)[0];

describe('per-package and whole-repository checks cover the same files', () => {
  it('every package has lint and typecheck scripts', () => {
    const missing = packages.filter((p) => !p.scripts.lint || !p.scripts.typecheck).map((p) => p.dir);
    expect(missing).toEqual([]);
  });

  it("every TypeScript file of a package is in that package's own type-check", () => {
    const perPackage = new Map(
      packages.map((p) => [
        p.dir,
        new Set(scriptConfigs(p.dir, p.scripts.typecheck ?? '').flatMap((c) => [...configFiles(c)])),
      ]),
    );
    const uncovered = tracked.filter((f) => {
      const owner = ownerOf(f);
      return owner !== undefined && !perPackage.get(owner.dir)!.has(f);
    });
    expect(uncovered).toEqual([]);
  });

  it('every TypeScript file is in the whole-repository type-check (typecheck:repo)', () => {
    const rootPackage = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const covered = new Set(
      scriptConfigs('', rootPackage.scripts['typecheck:repo']!).flatMap((c) => [...configFiles(c)]),
    );
    expect(tracked.filter((f) => !covered.has(f))).toEqual([]);
  });

  it('every TypeScript file outside the packages is linted by lint:root', () => {
    const rootPackage = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const outside = tracked.filter((f) => ownerOf(f) === undefined);
    expect(outside.filter((f) => !rootPackage.scripts['lint:root']!.split(' ').includes(f))).toEqual([]);
  });

  it("every test file is in its package's test script, which names the package's folder", () => {
    const tests = tracked.filter((f) => f.endsWith('.test.ts'));
    const wrong = tests.filter((f) => {
      const owner = ownerOf(f);
      return owner === undefined || !owner.scripts.test?.includes(` ${owner.dir}/`);
    });
    expect(wrong).toEqual([]);
    // Nested packages (services/admin/web) are excluded from the enclosing package's run.
    for (const outer of packages) {
      for (const inner of packages.filter((p) => p.dir.startsWith(`${outer.dir}/`))) {
        if (outer.scripts.test) expect(outer.scripts.test).toContain(`--exclude '${inner.dir}/**'`);
        expect(outer.scripts.lint).toContain(`--ignore-pattern ${path.relative(outer.dir, inner.dir)}`);
      }
    }
  });
});

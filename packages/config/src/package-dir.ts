import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder of the package a module belongs to: the nearest one above it with a package.json.
 * Files a package ships beside its code (the admin panel's build, the modal's pages, test
 * fixtures) are named from there, because a module's own depth differs between its source
 * (`src/web/x.ts`) and the compiled bundle it ends up in (`dist/server.mjs`).
 */
export function packageDir(moduleUrl: string): string {
  let dir = path.dirname(fileURLToPath(moduleUrl));
  for (;;) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${fileURLToPath(moduleUrl)}`);
    dir = parent;
  }
}

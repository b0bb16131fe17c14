// Removes what tsc built from a source file that no longer exists: tsc -b never deletes an output,
// and `npm test` runs every dist/test/**/*.test.js it finds, a deleted test included.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const dist = join(root, 'dist');

function prune(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) prune(path);
    else if (/\.(js|js\.map|d\.ts|d\.ts\.map)$/.test(entry.name)) {
      const source = join(root, relative(dist, path)).replace(/\.(js|js\.map|d\.ts|d\.ts\.map)$/, '.ts');
      if (!existsSync(source)) rmSync(path);
    }
  }
}

for (const top of ['src', 'test', 'bench']) if (existsSync(join(dist, top))) prune(join(dist, top));

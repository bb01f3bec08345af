import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * The monorepo's root, found from the working directory, so that local defaults (keys, mail
 * outbox, the built web app) mean the same place whether a process starts at the root or in its
 * workspace.
 */
export function repoRoot(from = process.cwd()): string {
  let dir = resolve(from);
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && 'workspaces' in JSON.parse(readFileSync(manifest, 'utf8'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return resolve(from);
    dir = parent;
  }
}

export const repoPath = (...segments: string[]) => join(repoRoot(), ...segments);

import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Every source file below `dir` (TypeScript and JavaScript, node_modules left out), for the guard
 * tests that read the code itself (imports, NATS use, layers). A missing folder has none.
 */
export function sourceFilesUnder(dir: string, pattern = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFilesUnder(path, pattern);
    return pattern.test(entry.name) ? [path] : [];
  });
}

// Sums the gzipped JavaScript that the first load of `/` fetches (the entry chunk and everything it
// imports statically) and fails the build when it is over the budget. Lazy dialogs are not counted.
// It also fails when any chunk carries zod: the schemas are the servers' (about 26 KB gzipped);
// the app takes types from `@crewswap/proto` and values from `@crewswap/proto/browser` only.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

// Issue 40: the app on a phone. What the login form needs, nothing more (dialogs, the trips page,
// toasts and the console load when they open).
const BUDGET_KB = 170;
const dist = new URL('../dist/', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));

const entry = Object.keys(manifest).find((key) => manifest[key].isEntry);
if (!entry) throw new Error('No entry chunk in the build manifest');

const seen = new Set();
const visit = (key) => {
  if (seen.has(key)) return;
  seen.add(key);
  for (const next of manifest[key].imports ?? []) visit(next);
};
visit(entry);

let total = 0;
for (const key of seen) {
  const file = manifest[key].file;
  if (!file.endsWith('.js')) continue;
  const size = gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
  total += size;
  console.log(`  ${file.padEnd(48)} ${(size / 1024).toFixed(1).padStart(7)} KB gzip`);
}
const totalKb = total / 1024;
console.log(`First load of / : ${totalKb.toFixed(1)} KB of JavaScript gzipped (budget ${BUDGET_KB} KB)`);
if (totalKb > BUDGET_KB) {
  console.error(`Over budget by ${(totalKb - BUDGET_KB).toFixed(1)} KB`);
  process.exit(1);
}

// zod v4 keeps its internals under `_zod` on every schema: no minifier renames a property.
const withZod = readdirSync(join(dist, 'assets')).filter((file) => file.endsWith('.js') && readFileSync(join(dist, 'assets', file), 'utf8').includes('_zod'));
if (withZod.length > 0) {
  console.error(`zod is in the app's bundle (${withZod.join(', ')}): import values from @crewswap/proto/browser, types with import type`);
  process.exit(1);
}

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const webRoot = resolve(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' || name === 'dist' ? [] : sourceFiles(path);
    return /\.(ts|tsx|mjs)$/.test(name) ? [path] : [];
  });
}

// Static, type-only, re-export, side-effect and dynamic imports alike.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;

function specifiers(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(SPECIFIER)].map((match) => match[1]!);
}

function resolveLocal(file: string, specifier: string): string | undefined {
  const base = resolve(dirname(file), specifier);
  return ['', '.ts', '.tsx', '/index.ts', '/index.tsx'].map((ending) => base + ending).find((path) => existsSync(path) && statSync(path).isFile());
}

/** Each file's local imports, as files. */
function importGraph(files: string[]): Map<string, string[]> {
  return new Map(
    files.map((file) => [
      file,
      specifiers(file)
        .filter((specifier) => specifier.startsWith('.'))
        .map((specifier) => resolveLocal(file, specifier))
        .filter((path): path is string => path !== undefined),
    ]),
  );
}

/** The same imports between groups of files (a file's group is `groupOf(file)`), without a group's own. */
function groupGraph(graph: Map<string, string[]>, groupOf: (file: string) => string): Map<string, string[]> {
  const groups = new Map<string, Set<string>>();
  for (const [file, imports] of graph) {
    const from = groupOf(file);
    const to = groups.get(from) ?? new Set<string>();
    for (const imported of imports) if (groupOf(imported) !== from) to.add(groupOf(imported));
    groups.set(from, to);
  }
  return new Map([...groups].map(([group, to]) => [group, [...to]]));
}

/** Every import circle in the graph, each as the chain that closes it. */
function circles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const done = new Set<string>();
  const onPath: string[] = [];
  const visit = (node: string) => {
    const at = onPath.indexOf(node);
    if (at >= 0) return void found.push([...onPath.slice(at), node]);
    if (done.has(node)) return;
    onPath.push(node);
    for (const next of graph.get(node) ?? []) visit(next);
    onPath.pop();
    done.add(node);
  };
  for (const node of graph.keys()) visit(node);
  return found;
}

const fromWeb = (path: string) => relative(webRoot, path);
/** src/features/trips/TripCard.tsx -> features/trips; src/api/auth.ts -> api; src/App.tsx -> App.tsx */
const areaOf = (file: string) => relative(join(webRoot, 'src'), file).split('/').slice(0, 2).join('/').replace(/^(api|shared)\/.*/, '$1');

describe('how the web app is put together', () => {
  const graph = importGraph(sourceFiles(join(webRoot, 'src')));

  it('no module imports itself back, directly or through others', () => {
    expect(circles(graph).map((chain) => chain.map(fromWeb))).toEqual([]);
  });

  it('no feature folder imports one that imports it back (what they share lives in shared/ or api/)', () => {
    expect(circles(groupGraph(graph, areaOf))).toEqual([]);
  });

  it('finds a circle when there is one', () => {
    const fixtures = importGraph(['circle-a.ts', 'circle-b.ts'].map((name) => join(webRoot, 'test/fixtures', name)));
    expect(circles(fixtures).map((chain) => chain.map(fromWeb))).toEqual([
      ['test/fixtures/circle-a.ts', 'test/fixtures/circle-b.ts', 'test/fixtures/circle-a.ts'],
    ]);
  });

  it("tooltips are shared/Tooltip's, with the spec's open and skip delays, never antd's own", () => {
    const own = join(webRoot, 'src/shared/Tooltip.tsx');
    const antdTooltips = sourceFiles(join(webRoot, 'src')).filter((file) => file !== own && /import\s*\{[^}]*\bTooltip\b[^}]*\}\s*from\s*'antd'/.test(readFileSync(file, 'utf8')));
    expect(antdTooltips.map(fromWeb)).toEqual([]);
  });

  it('the web folder never reaches server code: only the contracts package and its own files', () => {
    const files = [...sourceFiles(webRoot), join(webRoot, 'vite.config.ts')];
    const outside = files.flatMap((file) =>
      specifiers(file)
        .filter((specifier) =>
          specifier.startsWith('.')
            ? relative(webRoot, resolve(dirname(file), specifier)).startsWith('..')
            : specifier.startsWith('@crewswap/') && !/^@crewswap\/proto(\/browser)?$/.test(specifier),
        )
        .map((specifier) => `${relative(webRoot, file)} -> ${specifier}`),
    );
    expect(outside).toEqual([]);
  });
});

/**
 * swaps' layers (issue 52): `src/data/` (SQL) and `src/domain/` (use cases) share what both need
 * through `src/rules/` (the swap rule, the answer's pages, a wish's and a proposal's own tests) and
 * proto, never through each other. Data never loads domain; domain is handed its repositories
 * (deps) and names their types only (`import type`, gone at run time), never data's code.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { sourceFilesUnder } from '@crewswap/kit-testing';

const src = join(__dirname, '..', 'src');

/** Each relative import of a source: its specifier, and whether only types are imported. */
function importsOf(source: string): { specifier: string; typeOnly: boolean }[] {
  const found = [...source.matchAll(/^\s*(?:import|export)\s+(type\s+)?(?:[^'"`;]*?\s+from\s+)?(['"])(\.{1,2}\/[^'"]*)\2/gm)].map((match) => ({
    specifier: match[3]!,
    typeOnly: match[1] !== undefined,
  }));
  const dynamic = [...source.matchAll(/\b(?:import|require)\s*\(\s*(['"`])(\.{1,2}\/[^'"`]*)\1/g)].map((match) => ({ specifier: match[2]!, typeOnly: false }));
  return [...found, ...dynamic];
}

/** The layer of src a file or import target is in: 'data', 'domain', 'rules', or another folder or file. */
function layerOf(path: string): string {
  return relative(src, path).split(sep)[0]!;
}

/** What breaks the rule, one line each. */
function crossings(file: string, source: string): string[] {
  const from = layerOf(file);
  return importsOf(source).flatMap(({ specifier, typeOnly }) => {
    const to = layerOf(resolve(dirname(file), specifier));
    const broken = (from === 'data' && to === 'domain') || (from === 'domain' && to === 'data' && !typeOnly) || (from === 'rules' && (to === 'data' || to === 'domain'));
    return broken ? [`${relative(src, file)} imports ${specifier}`] : [];
  });
}

/**
 * The examples' relative paths are spelled through these, so that the repository's own guard
 * (kit/test/test-imports.test.ts) does not read the examples as this file's imports.
 */
const UP = '../..';
const UP1 = '..';

describe("swaps' data and domain do not import each other", () => {
  it('sees data loading domain, domain loading data, rules loading either, and lets types, rules and proto be', () => {
    const dataFile = join(src, 'data', 'offer-index', 'buckets.ts');
    const domainFile = join(src, 'domain', 'proposals', 'sides.ts');
    const rulesFile = join(src, 'rules', 'swap-rule.ts');
    expect(crossings(dataFile, `import type { Constraint } from '${UP}/domain/swap-rule';`)).toEqual(["data/offer-index/buckets.ts imports ../../domain/swap-rule"]);
    expect(crossings(dataFile, `import { MAX_WINDOW_DAYS } from '@crewswap/proto';\nimport type { Constraint } from '${UP}/rules/swap-rule';`)).toEqual([]);
    expect(crossings(domainFile, `import { tripKey, type ProposalRepository } from '${UP}/data/proposals';`)).toEqual(['domain/proposals/sides.ts imports ../../data/proposals']);
    expect(crossings(domainFile, `const data = await import('${UP}/data/wishes');`)).toEqual(['domain/proposals/sides.ts imports ../../data/wishes']);
    expect(crossings(domainFile, `import type { ProposalRepository, SideRow } from '${UP}/data/proposals';\nimport { isMutual } from '${UP}/rules/swap-rule';`)).toEqual([]);
    expect(crossings(rulesFile, `export { tripWindow } from '${UP1}/domain/compatibility';`)).toEqual(['rules/swap-rule.ts imports ../domain/compatibility']);
  });

  it('finds no such import in src', () => {
    const files = sourceFilesUnder(src, /\.ts$/).filter((file) => ['data', 'domain', 'rules'].includes(layerOf(file)));
    expect(files.length).toBeGreaterThan(20);
    expect(files.flatMap((file) => crossings(file, readFileSync(file, 'utf8')))).toEqual([]);
  });
});

/**
 * A service's tests and benches use other services only through their packages (`@crewswap/trips`,
 * or kit testing's startService): a relative path into another service's folder (its src, or test
 * helpers that import its src) ties a test to that service's layout, so a refactor there breaks
 * tests here. Proto and kit are packages too. Relative paths within the service, and to the
 * repository's scripts, are fine. The deployment's tests and the repository's scripts, which
 * belong to no service, reach every service through its package (what a script needs is exported
 * from the service's src/index.ts on purpose).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { repoRoot } from '@crewswap/kit';
import { sourceFilesUnder } from '@crewswap/kit-testing';

const root = repoRoot();

/** Relative specifiers of static imports, re-exports, dynamic imports and requires. */
function relativeImports(source: string): string[] {
  return [...source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)(['"`])(\.{1,2}\/[^'"`]*)\1/gm)].map((match) => match[2]!);
}

/** The folder the import lands in when it leaves `service` (none: deploy/test) for another service or proto; undefined otherwise. */
function crossing(service: string | undefined, file: string, specifier: string): string | undefined {
  const [top, name] = relative(root, resolve(dirname(file), specifier)).split(sep);
  if (top === 'proto') return 'proto';
  if (top === 'services' && name !== service) return `services/${name}`;
  return undefined;
}

describe('tests, benches and scripts reach services only through packages', () => {
  it('sees a reach into another service, a test helper of another service and proto, from a service or a script, and lets the own service and scripts be', () => {
    const file = join(root, 'services', 'roster-ingest', 'test', 'helpers.ts');
    const source = [
      "import { createApp } from '../../trips/src/app';",
      "import type { Harness } from '../../auth/test/harness';",
      "export { Trip } from '../../../proto/src/trip';",
      "const config = await import(`../../links/src/config`);",
      "import { createApp as own } from '../src/app';",
      "import { startStack } from '../../../scripts/stack';",
      "import { createApp as trips } from '@crewswap/trips';",
    ].join('\n');
    expect(relativeImports(source).map((specifier) => crossing('roster-ingest', file, specifier))).toEqual([
      'services/trips',
      'services/auth',
      'proto',
      'services/links',
      undefined,
      undefined,
    ]);
    const deployTest = join(root, 'deploy', 'test', 'chart.test.ts');
    expect(['../../services/kit/src/config', '../../scripts/build-services', './helm'].map((specifier) => crossing(undefined, deployTest, specifier))).toEqual([
      'services/kit',
      undefined,
      undefined,
    ]);
    const script = join(root, 'scripts', 'load.ts');
    expect(['../services/trips/src/data/trips', '../services/kit/src/paths', '../proto/src/trip', './stack'].map((specifier) => crossing(undefined, script, specifier))).toEqual([
      'services/trips',
      'services/kit',
      'proto',
      undefined,
    ]);
  });

  it('finds no such reach in any service, in the deployment tests or in the scripts', () => {
    const services = readdirSync(join(root, 'services'), { withFileTypes: true }).filter((entry) => entry.isDirectory());
    const reaches = services.flatMap(({ name: service }) =>
      ['test', 'bench'].flatMap((folder) =>
        // This file's own examples above are the one reach allowed.
        sourceFilesUnder(join(root, 'services', service, folder)).filter((file) => file !== __filename).flatMap((file) =>
          relativeImports(readFileSync(file, 'utf8'))
            .filter((specifier) => crossing(service, file, specifier))
            .map((specifier) => `${relative(root, file)} imports ${specifier}`),
        ),
      ),
    );
    // The deployment's tests and the scripts belong to no service: every service is another one.
    const fromOutside = [join(root, 'deploy', 'test'), join(root, 'scripts')].flatMap((dir) =>
      sourceFilesUnder(dir).flatMap((file) =>
        relativeImports(readFileSync(file, 'utf8'))
          .filter((specifier) => crossing(undefined, file, specifier))
          .map((specifier) => `${relative(root, file)} imports ${specifier}`),
      ),
    );
    expect(services.length).toBeGreaterThan(5);
    expect(sourceFilesUnder(join(root, 'scripts')).length).toBeGreaterThan(5);
    expect([...reaches, ...fromOutside]).toEqual([]);
  });
});

/** Package names a file imports (static, dynamic, type-only), e.g. '@crewswap/trips'. */
function packageImports(source: string): string[] {
  return [...source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*)(['"`])(@crewswap\/[^'"`/]+)/g)].map((match) => match[2]!);
}

describe('the kit and its test support', () => {
  const serviceNames = readdirSync(join(root, 'services'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !['kit', 'kit-testing'].includes(entry.name))
    .map((entry) => `@crewswap/${entry.name}`);

  it('the kit imports no service and no test support', () => {
    const found = sourceFilesUnder(join(root, 'services', 'kit', 'src')).flatMap((file) =>
      packageImports(readFileSync(file, 'utf8'))
        .filter((name) => serviceNames.includes(name) || name === '@crewswap/kit-testing')
        .map((name) => `${relative(root, file)} imports ${name}`),
    );
    expect(serviceNames.length).toBeGreaterThan(5);
    expect(found).toEqual([]);
  });

  it('no production code imports test support', () => {
    const services = readdirSync(join(root, 'services'), { withFileTypes: true }).filter((entry) => entry.isDirectory() && entry.name !== 'kit-testing');
    const found = services.flatMap(({ name }) =>
      sourceFilesUnder(join(root, 'services', name, 'src')).flatMap((file) =>
        packageImports(readFileSync(file, 'utf8'))
          .filter((imported) => imported === '@crewswap/kit-testing')
          .map(() => `${relative(root, file)} imports @crewswap/kit-testing`),
      ),
    );
    expect(found).toEqual([]);
  });
});

/**
 * Builds services to plain JavaScript for the production images: `node --import tsx
 * scripts/build-services.ts [service ...]` (default: every service) writes
 * `services/<name>/dist/<entry>.mjs` for each entry the service has (main, migrate, and the
 * operator commands rebuild and reset-directory). Workspace code (kit, proto, the service) is
 * bundled in; npm packages stay imports, resolved from the image's production node_modules, so
 * every one of them must be a production dependency of the service, the kit or proto: the build
 * fails otherwise, rather than the image failing at start.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { repoRoot } from '@crewswap/kit';

const ENTRIES = ['main', 'migrate', 'rebuild', 'reset-directory', 'parse-worker'];
const root = repoRoot();

/** Every folder under services/ with a src/main.ts is a deployable service. */
export function serviceNames(): string[] {
  return readdirSync(join(root, 'services'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(root, 'services', entry.name, 'src', 'main.ts')))
    .map((entry) => entry.name)
    .sort();
}

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
}

const manifestOf = (dir: string): Manifest => JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as Manifest;
const workspaceDirs: Record<string, string> = { '@crewswap/kit': 'services/kit', '@crewswap/proto': 'proto' };

/** Production dependencies of a workspace and of the workspaces it depends on. */
function productionDependencies(dir: string, seen = new Set<string>()): Set<string> {
  const names = new Set<string>();
  if (seen.has(dir)) return names;
  seen.add(dir);
  for (const name of Object.keys(manifestOf(dir).dependencies ?? {})) {
    const workspace = workspaceDirs[name];
    if (workspace) for (const nested of productionDependencies(workspace, seen)) names.add(nested);
    else names.add(name);
  }
  return names;
}

/** `@scope/name/sub` -> `@scope/name`, `name/sub` -> `name`. */
const packageName = (specifier: string) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

export async function buildService(service: string): Promise<string[]> {
  const dir = `services/${service}`;
  const allowed = productionDependencies(dir);
  const imported = new Set<string>();
  const externals: Plugin = {
    name: 'npm-packages-external',
    setup(setup) {
      setup.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith('node:') || args.path.startsWith('@crewswap/') || isBuiltin(args.path)) return undefined;
        const name = packageName(args.path);
        // A package npm nested inside a workspace (the kit's pinned @fastify/cookie) cannot be found
        // from dist/ at run time, so it is bundled; everything at the root stays an import.
        if (!resolvesToRoot(name, args.resolveDir)) return undefined;
        if (!args.importer.includes(`${sep}node_modules${sep}`)) imported.add(name);
        return { path: args.path, external: true };
      });
    },
  };
  const entryPoints = ENTRIES.filter((entry) => existsSync(join(root, dir, 'src', `${entry}.ts`))).map((entry) => ({
    in: join(root, dir, 'src', `${entry}.ts`),
    out: entry,
  }));
  await build({
    entryPoints,
    outdir: join(root, dir, 'dist'),
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    // Bundled CommonJS (a nested package) calls require; ESM output has none unless made here.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    // Node builtins stay imports; esbuild already knows them on platform node.
    plugins: [externals],
    logLevel: 'warning',
  });
  const undeclared = [...imported].filter((name) => !allowed.has(name));
  if (undeclared.length > 0) {
    throw new Error(`${service} imports ${undeclared.join(', ')}, which no production dependency of it, the kit or proto declares`);
  }
  return entryPoints.map((entry) => `${dir}/dist/${entry.out}.mjs`);
}

const BUILTINS = new Set(builtinModules);
const isBuiltin = (specifier: string) => BUILTINS.has(specifier.split('/')[0]!) || BUILTINS.has(specifier);

/** Whether Node, walking up from `fromDir`, finds `name` in the root node_modules (not a nested copy). */
function resolvesToRoot(name: string, fromDir: string): boolean {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules', name, 'package.json'))) return dir === root;
    if (dirname(dir) === dir) return true;
  }
}

async function main(wanted: string[]): Promise<void> {
  for (const service of wanted.length > 0 ? wanted : serviceNames()) {
    const files = await buildService(service);
    process.stdout.write(`${service}: ${files.join(', ')}\n`);
  }
}

// Run as a command (not when the deploy tests import buildService).
if (process.argv[1]?.endsWith('build-services.ts')) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}

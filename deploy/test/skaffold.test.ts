/**
 * skaffold.yaml against skaffold's own schema for the apiVersion it names (deploy/schemas), as
 * written and with each profile applied, so a field skaffold does not know (issue 54: the
 * `dependencyBuild` that stopped every skaffold command at parse) fails `make test`, not a developer.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { ROOT, readYaml } from './repo';

interface Patch { op?: string; path: string; value?: unknown }
interface SkaffoldFile { apiVersion: string; profiles?: { name: string; patches?: Patch[] }[] }

const skaffold = readYaml('skaffold.yaml') as SkaffoldFile;
const version = skaffold.apiVersion.replace('skaffold/', '');
const schemaFile = join(ROOT, 'deploy', 'schemas', `skaffold-${version}.json`);

/** Every way a config breaks the schema, one sentence each. */
function problems(config: unknown): string[] {
  const validate = new Ajv({ allErrors: true, strict: false }).compile(JSON.parse(readFileSync(schemaFile, 'utf8')));
  if (validate(config)) return [];
  return (validate.errors ?? []).map((error) =>
    error.keyword === 'additionalProperties'
      ? `${error.instancePath || '/'}: skaffold ${version} has no field "${(error.params as { additionalProperty: string }).additionalProperty}"`
      : `${error.instancePath || '/'}: ${error.message}`,
  );
}

/** A profile's JSON patches applied as skaffold applies them (add, replace, remove; `-` appends). */
function applyPatches(config: unknown, patches: Patch[]): unknown {
  const copy = structuredClone(config) as Record<string, unknown>;
  for (const { op = 'replace', path, value } of patches) {
    const keys = path.split('/').slice(1).map((key) => key.replace(/~1/g, '/').replace(/~0/g, '~'));
    const last = keys.pop()!;
    const parent = keys.reduce<any>((node, key) => {
      if (node?.[key] === undefined) throw new Error(`patch ${op} ${path}: ${key} does not exist`);
      return node[key];
    }, copy);
    if (Array.isArray(parent)) {
      const index = last === '-' ? parent.length : Number(last);
      if (op === 'add') parent.splice(index, 0, value);
      else if (op === 'remove') parent.splice(index, 1);
      else parent[index] = value;
    } else if (op === 'remove') delete parent[last];
    else parent[last] = value;
  }
  return copy;
}

describe("skaffold.yaml against skaffold's schema", () => {
  test('the schema for the apiVersion skaffold.yaml names is kept in the repo', () => {
    expect(existsSync(schemaFile)).toBe(true);
  });

  test('skaffold.yaml as written is valid', () => {
    expect(problems(skaffold)).toEqual([]);
  });

  test.each((skaffold.profiles ?? []).map((profile) => profile.name))('skaffold.yaml with profile %s applied is valid', (name) => {
    const profile = skaffold.profiles!.find((candidate) => candidate.name === name)!;
    const { profiles: _profiles, ...base } = skaffold as SkaffoldFile & Record<string, unknown>;
    expect(problems(applyPatches(base, profile.patches ?? []))).toEqual([]);
  });

  test('a field skaffold does not know, like dependencyBuild, is refused by name', () => {
    const broken = structuredClone(skaffold) as unknown as { deploy: { helm: { releases: Record<string, unknown>[] } } };
    broken.deploy.helm.releases[0]!.dependencyBuild = true;
    expect(problems(broken)).toEqual(['/deploy/helm/releases/0: skaffold v4beta11 has no field "dependencyBuild"']);
  });

  test('the chart release still builds its dependencies (the NATS chart) before each deploy', () => {
    const release = (skaffold as unknown as { deploy: { helm: { releases: { chartPath?: string; skipBuildDependencies?: boolean }[] } } }).deploy.helm.releases.find((candidate) => candidate.chartPath === 'deploy/helm/crewswap')!;
    expect(release.skipBuildDependencies).toBe(false);
  });
});

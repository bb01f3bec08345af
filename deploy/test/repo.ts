/** What the deploy tests read: the service folders, the chart's values, skaffold and the templates. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';

export const ROOT = resolve(__dirname, '..', '..');
export const CHART = join(ROOT, 'deploy', 'helm', 'crewswap');
export const GRAFANA = join(ROOT, 'deploy', 'grafana');

export const read = (...segments: string[]) => readFileSync(join(ROOT, ...segments), 'utf8');
export const readYaml = (...segments: string[]): unknown => parse(read(...segments));

/** Every folder under services/ with a src/main.ts: a deployable service. */
export function serviceFolders(): string[] {
  return readdirSync(join(ROOT, 'services'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(ROOT, 'services', entry.name, 'src', 'main.ts')))
    .map((entry) => entry.name)
    .sort();
}

export interface ServiceValues {
  enabled: boolean;
  port: number;
  database: boolean;
  migrations: boolean;
  nats: boolean;
  env: Record<string, string>;
  secretEnv: string[];
  optionalSecretEnv: string[];
  publicPorts: { name: string; port: number }[];
  [key: string]: unknown;
}

export interface ChartValues {
  appOrigin: string;
  config: Record<string, string>;
  serviceDefaults: ServiceValues;
  services: Record<string, Partial<ServiceValues>>;
  nats: { enabled: boolean; config: { cluster: { enabled: boolean; replicas: number }; jetstream: { enabled: boolean } } };
  database: { cnpg: { enabled: boolean } };
  [key: string]: unknown;
}

export const chartValues = (file = 'values.yaml') => parse(readFileSync(join(CHART, file), 'utf8')) as ChartValues;

/** A service's settings as the templates see them: serviceDefaults overlaid with its block (mergeOverwrite). */
export function serviceSettings(values: ChartValues, name: string): ServiceValues {
  const block = values.services[name] ?? {};
  return { ...values.serviceDefaults, ...block, env: { ...values.serviceDefaults.env, ...(block.env ?? {}) } } as ServiceValues;
}

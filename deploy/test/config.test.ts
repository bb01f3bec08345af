import { generateKeyPairSync } from 'node:crypto';
import { loadConfig, productionRequiredKeys } from '@crewswap/kit';
import { named, removeScratch, render, type K8sObject } from './helm';
import { chartValues, serviceFolders, serviceSettings } from './repo';

const values = chartValues();
// eslint-disable-next-line @typescript-eslint/no-require-imports
const vapid = (require('web-push') as { generateVAPIDKeys(): { publicKey: string; privateKey: string } }).generateVAPIDKeys();
const keys = generateKeyPairSync('ec', { namedCurve: 'P-256', publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });

/** Stand-ins for what the Secrets hold, shaped as an operator would fill them. */
const SECRET_EXAMPLES: Record<string, string> = {
  DATABASE_URL: 'postgresql://crewswap:secret@crewswap-pg-rw:5432/crewswap',
  JWT_PUBLIC_KEY: keys.publicKey,
  JWT_PRIVATE_KEY: keys.privateKey,
  ADMIN_PASSWORD: 'a-long-admin-password',
  SMTP_URL: 'smtp://user:pass@smtp.example.com:587',
  VAPID_PUBLIC_KEY: vapid.publicKey,
  VAPID_PRIVATE_KEY: vapid.privateKey,
};

const objects = render();
afterAll(removeScratch);
type EnvEntry = { name: string; value?: string; valueFrom?: { secretKeyRef: { key: string; optional?: boolean } } };

/**
 * The environment the rendered Deployment gives a service's container (helm template, default
 * values): its ConfigMap, its literal variables, and each Secret key it reads (the examples above;
 * an optional key left out, as an operator may).
 */
function chartEnvironment(name: string): Record<string, string> {
  const container = (named(objects, 'Deployment', `crewswap-${name}`) as K8sObject).spec.template.spec.containers[0] as { envFrom: { configMapRef: { name: string } }[]; env: EnvEntry[] };
  const env: Record<string, string> = {};
  for (const source of container.envFrom) Object.assign(env, named(objects, 'ConfigMap', source.configMapRef.name)!.data);
  for (const entry of container.env) {
    if (entry.value !== undefined) env[entry.name] = entry.value;
    else if (entry.valueFrom?.secretKeyRef && !entry.valueFrom.secretKeyRef.optional) env[entry.name] = SECRET_EXAMPLES[entry.valueFrom.secretKeyRef.key] ?? 'from-the-secret';
  }
  return env;
}

type ConfigModule = { configSchema: Parameters<typeof loadConfig>[0] };
const schemaOf = async (name: string) => ((await import(`@crewswap/${name}`)) as ConfigModule).configSchema;

describe('the chart sets every variable a service requires in production', () => {
  test('the chart runs every service in production mode', () => {
    expect(values.config.CREWSWAP_ENV).toBe('production');
    for (const name of serviceFolders()) expect(chartEnvironment(name).CREWSWAP_ENV).toBe('production');
  });

  test.each(serviceFolders())('%s starts on what the chart gives it, with CREWSWAP_ENV=production', async (name) => {
    const schema = await schemaOf(name);
    const env = chartEnvironment(name);
    expect(() => loadConfig(schema, env)).not.toThrow();
    for (const key of productionRequiredKeys(schema)) expect(Object.keys(env)).toContain(key);
  });

  test.each(serviceFolders().filter((name) => serviceSettings(values, name).database))('%s refuses to start in production without DATABASE_URL or its signing key', async (name) => {
    const schema = await schemaOf(name);
    const { DATABASE_URL: _database, ...withoutDatabase } = chartEnvironment(name);
    expect(() => loadConfig(schema, withoutDatabase)).toThrow(/DATABASE_URL: must be set when CREWSWAP_ENV=production/);
    const { JWT_PUBLIC_KEY: _key, ...withoutKey } = chartEnvironment(name);
    expect(() => loadConfig(schema, withoutKey)).toThrow(/JWT_PUBLIC_KEY: must be set/);
    // Locally (no CREWSWAP_ENV) the defaults still apply.
    expect(() => loadConfig(schema, {})).not.toThrow();
  });

  test('push-sender starts on what the chart gives it, with CREWSWAP_ENV=production, and refuses to without its VAPID keys', async () => {
    const { configSchema: pushSenderConfigSchema } = await import('@crewswap/push-sender');
    const env = chartEnvironment('push-sender');
    expect(() => loadConfig(pushSenderConfigSchema, env)).not.toThrow();
    for (const key of productionRequiredKeys(pushSenderConfigSchema)) expect(Object.keys(env)).toContain(key);
    const { VAPID_PRIVATE_KEY: _vapid, ...withoutVapid } = env;
    expect(() => loadConfig(pushSenderConfigSchema, withoutVapid)).toThrow(/VAPID_PRIVATE_KEY: must be set/);
  });

  test('the services that sign sessions get the private key; no other does', async () => {
    for (const name of serviceFolders()) {
      const signs = productionRequiredKeys(await schemaOf(name)).includes('JWT_PRIVATE_KEY');
      expect([name, serviceSettings(values, name).secretEnv.includes('JWT_PRIVATE_KEY')]).toEqual([name, signs]);
    }
  });
});

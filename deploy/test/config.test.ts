import { generateKeyPairSync } from 'node:crypto';
import { loadConfig, productionRequiredKeys } from '../../services/kit/src/config';
import { chartValues, read, serviceFolders, serviceSettings, type ChartValues } from './repo';

const values = chartValues();
const keys = generateKeyPairSync('ec', { namedCurve: 'P-256', publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });

/** Stand-ins for what the Secret holds, shaped as an operator would fill it. */
const SECRET_EXAMPLES: Record<string, string> = {
  DATABASE_URL: 'postgresql://crewswap:secret@crewswap-pg-rw:5432/crewswap',
  JWT_PUBLIC_KEY: keys.publicKey,
  JWT_PRIVATE_KEY: keys.privateKey,
  ADMIN_PASSWORD: 'a-long-admin-password',
  SMTP_URL: 'smtp://user:pass@smtp.example.com:587',
};

/**
 * The environment deployments.yaml gives a service's container, from values: the ConfigMap
 * (config plus APP_ORIGIN), HOST and PORT, NATS_URL and DATABASE_URL where it uses them, the
 * gateway's upstream for every service, its own env and its Secret keys.
 */
function chartEnvironment(chart: ChartValues, name: string): Record<string, string> {
  const svc = serviceSettings(chart, name);
  const env: Record<string, string> = { APP_ORIGIN: chart.appOrigin, ...chart.config, HOST: '0.0.0.0', PORT: String(svc.port) };
  if (svc.nats) env.NATS_URL = 'nats://crewswap-nats:4222';
  if (svc.database) env.DATABASE_URL = SECRET_EXAMPLES.DATABASE_URL!;
  if (name === 'gateway') {
    for (const other of Object.keys(chart.services).filter((other) => other !== 'gateway')) {
      env[`${other.toUpperCase().replace(/-/g, '_')}_URL`] = `http://crewswap-${other}:${serviceSettings(chart, other).port}`;
    }
  }
  Object.assign(env, svc.env);
  for (const key of svc.secretEnv) env[key] = SECRET_EXAMPLES[key] ?? 'from-the-secret';
  return env;
}

type ConfigModule = { configSchema: Parameters<typeof loadConfig>[0] };
const schemaOf = async (name: string) => ((await import(`../../services/${name}/src/config`)) as ConfigModule).configSchema;

describe('the chart sets every variable a service requires in production', () => {
  test('the templates set what chartEnvironment assumes', () => {
    const deployment = read('deploy/helm/crewswap/templates/deployments.yaml');
    for (const fragment of ['configMapRef', 'name: HOST', 'name: PORT', 'name: NATS_URL', 'crewswap.databaseUrlEnv', 'crewswap.urlVar', 'range $key, $value := $svc.env', 'range $svc.secretEnv']) {
      expect(deployment).toContain(fragment);
    }
    const configMap = read('deploy/helm/crewswap/templates/configmap.yaml');
    expect(configMap).toContain('APP_ORIGIN: {{ .Values.appOrigin | quote }}');
    expect(configMap).toContain('range $key, $value := .Values.config');
    expect(values.config.CREWSWAP_ENV).toBe('production');
  });

  test.each(serviceFolders())('%s starts on what the chart gives it, with CREWSWAP_ENV=production', async (name) => {
    const schema = await schemaOf(name);
    const env = chartEnvironment(values, name);
    expect(() => loadConfig(schema, env)).not.toThrow();
    for (const key of productionRequiredKeys(schema)) expect(Object.keys(env)).toContain(key);
  });

  test.each(serviceFolders().filter((name) => serviceSettings(values, name).database))('%s refuses to start in production without DATABASE_URL or its signing key', async (name) => {
    const schema = await schemaOf(name);
    const { DATABASE_URL: _database, ...withoutDatabase } = chartEnvironment(values, name);
    expect(() => loadConfig(schema, withoutDatabase)).toThrow(/DATABASE_URL: must be set when CREWSWAP_ENV=production/);
    const { JWT_PUBLIC_KEY: _key, ...withoutKey } = chartEnvironment(values, name);
    expect(() => loadConfig(schema, withoutKey)).toThrow(/JWT_PUBLIC_KEY: must be set/);
    // Locally (no CREWSWAP_ENV) the defaults still apply.
    expect(() => loadConfig(schema, {})).not.toThrow();
  });

  test('push-sender starts on what the chart gives it, with CREWSWAP_ENV=production, and refuses to without its VAPID keys', async () => {
    const { pushSenderConfigSchema } = await import('../../services/notifications/src/config');
    const env = chartEnvironment(values, 'push-sender');
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

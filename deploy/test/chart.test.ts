import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { buildService } from '../../scripts/build-services';
import { FORMS, ofKind, removeScratch, render, type K8sObject } from './helm';
import { CHART, chartValues, read, readYaml, ROOT, serviceFolders, serviceSettings } from './repo';

interface Artifact {
  image: string;
  docker: { dockerfile: string; target: string; buildArgs: Record<string, string> };
}
const skaffold = readYaml('skaffold.yaml') as {
  build: { artifacts: Artifact[] };
  deploy: { helm: { releases: { name: string; chartPath: string; setValueTemplates: Record<string, string> }[] } };
  profiles: { name: string }[];
};
const values = chartValues();
const folders = serviceFolders();
const templates = readdirSync(join(CHART, 'templates')).filter((file) => file.endsWith('.yaml'));
// Real helm (helm.ts); helm-chart.test.ts checks these objects in depth.
const rendered = Object.values(FORMS).flatMap((args) => render(args));
afterAll(removeScratch);

describe('every service folder is deployed', () => {
  test.each(folders)('%s has its image, skaffold artifact, values block, Deployment and Service', (name) => {
    const artifact = skaffold.build.artifacts.find((candidate) => candidate.image === `crewswap/${name}`);
    expect(artifact).toBeDefined();
    expect(artifact!.docker.dockerfile).toBe('services/Dockerfile');
    expect(artifact!.docker.buildArgs.SERVICE).toBe(name);
    expect(artifact!.docker.target).toBe(name === 'gateway' ? 'gateway' : 'service');
    const release = skaffold.deploy.helm.releases.find((candidate) => candidate.chartPath === 'deploy/helm/crewswap')!;
    expect(release.setValueTemplates[`services.${name}.image.repository`]).toContain(`IMAGE_REPO_crewswap_${name.replace(/-/g, '_')}`);
    expect(release.setValueTemplates[`services.${name}.image.tag`]).toContain(`IMAGE_TAG_crewswap_${name.replace(/-/g, '_')}`);

    expect(values.services[name]).toBeDefined();
    const settings = serviceSettings(values, name);
    expect(settings.enabled).toBe(true);
    // The Deployment and Service come from one template each, ranging over the values' services.
    for (const file of ['deployments.yaml', 'services.yaml', 'autoscaling.yaml', 'poddisruptionbudgets.yaml']) {
      expect(read('deploy/helm/crewswap/templates', file)).toContain('range $name, $values := .Values.services');
    }
    if (settings.database && settings.migrations) {
      expect(existsSync(join(ROOT, 'services', name, 'src', 'migrate.ts'))).toBe(true);
    }
  });

  test.each(folders)('%s listens where the chart sends it: its default PORT is its values port', async (name) => {
    const { configSchema } = (await import(`@crewswap/${name}`)) as { configSchema: { parse(env: object): { PORT: number } } };
    expect(configSchema.parse({}).PORT).toBe(serviceSettings(values, name).port);
  });

  test.each(folders)('%s bundles to JavaScript importing only production dependencies', async (name) => {
    const files = await buildService(name);
    expect(files).toContain(`services/${name}/dist/main.mjs`);
    const settings = serviceSettings(values, name);
    if (settings.database && settings.migrations) expect(files).toContain(`services/${name}/dist/migrate.mjs`);
  });

  test('nothing is built or switched on for a service folder that does not exist', () => {
    for (const artifact of skaffold.build.artifacts) expect(folders).toContain(artifact.image.replace('crewswap/', ''));
    for (const name of Object.keys(values.services)) {
      const settings = serviceSettings(values, name);
      if (settings.enabled) expect(folders).toContain(name);
    }
  });

  test("each Deployment runs its own service's image and bundle: push-sender is a service of its own, not a second entry of notifications'", () => {
    for (const deployment of ofKind(rendered, 'Deployment')) {
      const name = deployment.metadata.labels?.['app.kubernetes.io/name'];
      const [container] = deployment.spec.template.spec.containers;
      expect([name, container.command]).toEqual([name, ['node', '--enable-source-maps', 'dist/main.mjs']]);
      expect(container.image).toMatch(new RegExp(`/${name}[:@]`));
    }
    expect(folders).toContain('push-sender');
  });

  test('the image builds JavaScript, installs production dependencies only, runs as node, and the gateway adds the web app', () => {
    const dockerfile = read('services', 'Dockerfile');
    expect(dockerfile).toMatch(/RUN node --import tsx scripts\/build-services\.ts \$\{SERVICE\}/);
    expect(dockerfile).toMatch(/npm install --omit=dev/);
    expect(dockerfile).toMatch(/FROM \$\{NODE_IMAGE\} AS service[\s\S]*USER node/);
    expect(dockerfile).toMatch(/CMD \["node", "--enable-source-maps", "dist\/main\.mjs"\]/);
    expect(dockerfile).toMatch(/FROM service AS gateway\nCOPY --from=web \/app\/web\/dist web\/dist/);
    expect(dockerfile).not.toMatch(/tsx services/);
  });

  test('skaffold deploys the chart and has a local profile', () => {
    expect(skaffold.deploy.helm.releases.map((release) => release.chartPath)).toContain('deploy/helm/crewswap');
    expect(skaffold.profiles.map((profile) => profile.name)).toContain('local');
  });
});

describe('the chart', () => {
  test('values files parse', () => {
    for (const file of ['values.yaml', 'values-local.yaml', 'Chart.yaml']) expect(parse(readFileSync(join(CHART, file), 'utf8'))).toBeTruthy();
  });

  test('it makes every kind the platform asks for', () => {
    const kinds = new Set(rendered.map((object) => object.kind));
    for (const kind of ['Deployment', 'Service', 'HorizontalPodAutoscaler', 'PodDisruptionBudget', 'Job', 'Ingress', 'NetworkPolicy', 'ConfigMap', 'ServiceMonitor', 'PrometheusRule', 'Cluster']) {
      expect(kinds).toContain(kind);
    }
  });

  test('pods run as non-root on a read-only root filesystem, probed on /healthz and /readyz, with a grace period longer than the drain', () => {
    for (const workload of [...ofKind(rendered, 'Deployment'), ...ofKind(rendered, 'Job')]) {
      const pod = workload.spec.template.spec;
      expect(pod.securityContext.runAsNonRoot).toBe(true);
      for (const container of [...(pod.initContainers ?? []), ...pod.containers]) {
        expect(container.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
      }
    }
    for (const deployment of ofKind(rendered, 'Deployment')) {
      const [container] = deployment.spec.template.spec.containers;
      expect(container.livenessProbe.httpGet.path).toBe('/healthz');
      expect(container.readinessProbe.httpGet.path).toBe('/readyz');
    }
    // The kit forces an exit 10 s after SIGTERM; the pod must get longer than preStop + that.
    const defaults = values.serviceDefaults as unknown as { terminationGracePeriodSeconds: number; preStopSeconds: number };
    expect(defaults.terminationGracePeriodSeconds).toBeGreaterThan(defaults.preStopSeconds + 10);
  });

  test('the gateway ingress streams server-sent events unbuffered', () => {
    const ingress = values.ingress as { annotations: Record<string, string> };
    expect(ingress.annotations['nginx.ingress.kubernetes.io/proxy-buffering']).toBe('off');
  });

  test('roster-ingest listens for SMTP on 2525, behind port 25 of its own Service', () => {
    const roster = serviceSettings(values, 'roster-ingest');
    expect(roster.publicPorts).toEqual([expect.objectContaining({ name: 'smtp', port: 25, containerPort: 2525 })]);
    expect(roster.env.SMTP_INGEST_PORT).toBe('2525');
    expect(read('deploy/helm/crewswap/templates/services.yaml')).toMatch(/range \$svc\.publicPorts/);
  });

  test('NATS is the official chart with JetStream on and 3 replicas', () => {
    const chart = parse(readFileSync(join(CHART, 'Chart.yaml'), 'utf8')) as { dependencies: { name: string; repository: string }[] };
    expect(chart.dependencies).toEqual([expect.objectContaining({ name: 'nats', repository: 'https://nats-io.github.io/k8s/helm/charts/' })]);
    expect(values.nats.config.jetstream.enabled).toBe(true);
    expect(values.nats.config.cluster).toEqual({ enabled: true, replicas: 3 });
  });

  test('no template makes a secret: every secret is read from an existing Secret or the database operator', () => {
    for (const file of templates) expect(read('deploy/helm/crewswap/templates', file)).not.toMatch(/kind: Secret|genPrivateKey|randAlphaNum/);
    expect(ofKind(rendered, 'Secret')).toEqual([]);
  });

  test('the chart carries the dashboards and alert rules of deploy/grafana', () => {
    expect(readdirSync(join(CHART, 'files', 'grafana', 'dashboards')).filter((file) => file.endsWith('.json')).length).toBeGreaterThan(0);
    expect(existsSync(join(CHART, 'files', 'grafana', 'alerts.yaml'))).toBe(true);
  });
});

describe('tracing', () => {
  type Env = { name: string; value?: string }[];
  const envOf = (deployment: K8sObject) => (deployment.spec.template.spec.containers[0].env as Env).filter((entry) => entry.name.startsWith('OTEL_'));
  const endpoint = 'http://tempo.monitoring:4318';
  const traced = render(['--set', `tracing.otlpEndpoint=${endpoint}`]);

  test('with tracing.otlpEndpoint set, every service sends its spans there under its own name, and may reach it', () => {
    const deployments = ofKind(traced, 'Deployment');
    expect(deployments.length).toBeGreaterThan(0);
    for (const deployment of deployments) {
      const name = deployment.metadata.labels!['app.kubernetes.io/name'];
      expect(envOf(deployment)).toEqual([
        { name: 'OTEL_SERVICE_NAME', value: name },
        { name: 'OTEL_EXPORTER_OTLP_ENDPOINT', value: endpoint },
      ]);
      const policy = ofKind(traced, 'NetworkPolicy').find((candidate) => candidate.metadata.name === deployment.metadata.name)!;
      expect(policy.spec.egress).toContainEqual({ ports: [{ port: 4318, protocol: 'TCP' }] });
    }
  });

  test('by default no endpoint is set (no span is sent) and the services are still named', () => {
    for (const deployment of ofKind(rendered, 'Deployment')) {
      expect(envOf(deployment).map((entry) => entry.name)).toEqual(['OTEL_SERVICE_NAME']);
    }
    expect((values as unknown as { tracing: { otlpEndpoint: string } }).tracing.otlpEndpoint).toBe('');
  });
});

describe('session guards reach auth and admin while NATS is away', () => {
  const objects = render();
  const policyOf = (name: string) => ofKind(objects, 'NetworkPolicy').find((policy) => policy.metadata.name === `crewswap-${name}`)!;
  const owners = ['auth', 'admin'];

  test('every service but the gateway is told where auth and admin are, and may reach their port; they let it in', () => {
    const deployments = ofKind(objects, 'Deployment').filter((deployment) => deployment.metadata.labels!['app.kubernetes.io/name'] !== 'gateway');
    expect(deployments.length).toBeGreaterThan(owners.length);
    for (const deployment of deployments) {
      const name = deployment.metadata.labels!['app.kubernetes.io/name']!;
      const env = deployment.spec.template.spec.containers[0].env as { name: string; value?: string }[];
      expect([name, env.filter((entry) => entry.name === 'AUTH_URL' || entry.name === 'ADMIN_URL')]).toEqual([
        name,
        [
          { name: 'AUTH_URL', value: `http://crewswap-auth:${serviceSettings(values, 'auth').port}` },
          { name: 'ADMIN_URL', value: `http://crewswap-admin:${serviceSettings(values, 'admin').port}` },
        ],
      ]);
      const reached = (policyOf(name).spec.egress as { to?: { podSelector?: { matchLabels: Record<string, string> } }[]; ports?: { port: unknown }[] }[])
        .filter((rule) => rule.ports?.some((port) => port.port === 'http'))
        .flatMap((rule) => rule.to ?? [])
        .map((peer) => peer.podSelector?.matchLabels['app.kubernetes.io/name']);
      expect([name, reached]).toEqual([name, expect.arrayContaining(owners)]);
    }
    for (const owner of owners) {
      expect(policyOf(owner).spec.ingress).toContainEqual({
        from: [{ podSelector: { matchLabels: { 'app.kubernetes.io/part-of': 'crewswap', 'app.kubernetes.io/instance': 'crewswap', 'app.kubernetes.io/component': 'service' } } }],
        ports: [{ port: 'http' }],
      });
    }
  });
});

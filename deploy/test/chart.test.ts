import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { parse } from 'yaml';
import { buildService } from '../../scripts/build-services';
import { CHART, chartValues, read, readYaml, ROOT, serviceFolders, serviceSettings, templateDocuments } from './repo';

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
    const { configSchema } = (await import(`../../services/${name}/src/config`)) as { configSchema: { parse(env: object): { PORT: number } } };
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
      if (settings.enabled) expect(folders).toContain(settings.imageOf ?? name);
    }
  });

  test("a second process runs its service's image with an entry that service's bundle has (push-sender)", async () => {
    const workers = Object.keys(values.services).filter((name) => serviceSettings(values, name).imageOf);
    expect(workers).toEqual(['push-sender']);
    for (const name of workers) {
      const { imageOf, entry, port } = serviceSettings(values, name);
      expect(await buildService(imageOf!)).toContain(`services/${imageOf}/dist/${entry}.mjs`);
      const { pushSenderConfigSchema } = (await import(`../../services/${imageOf}/src/config`)) as { pushSenderConfigSchema: { parse(env: object): { PORT: number } } };
      expect(pushSenderConfigSchema.parse({}).PORT).toBe(port);
    }
    const deployment = read('deploy/helm/crewswap/templates/deployments.yaml');
    expect(deployment).toContain('$svc.imageOf | default $name');
    expect(deployment).toContain('printf "dist/%s.mjs" ($svc.entry | default "main")');
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
  test.each(templates)('template %s parses as YAML around its actions, every document a Kubernetes object', (file) => {
    const text = readFileSync(join(CHART, 'templates', file), 'utf8');
    const opened = (text.match(/\{\{-?\s*(if|range|with|define)\b/g) ?? []).length;
    const closed = (text.match(/\{\{-?\s*end\b/g) ?? []).length;
    expect(closed).toBe(opened);
    for (const doc of templateDocuments(file)) {
      expect(typeof doc.apiVersion).toBe('string');
      expect(typeof doc.kind).toBe('string');
    }
  });

  test('values files parse', () => {
    for (const file of ['values.yaml', 'values-local.yaml', 'Chart.yaml']) expect(parse(readFileSync(join(CHART, file), 'utf8'))).toBeTruthy();
  });

  test('it makes every kind the platform asks for', () => {
    const kinds = new Set(templates.flatMap((file) => templateDocuments(file).map((doc) => doc.kind)));
    for (const kind of ['Deployment', 'Service', 'HorizontalPodAutoscaler', 'PodDisruptionBudget', 'Job', 'Ingress', 'NetworkPolicy', 'ConfigMap', 'ServiceMonitor', 'PrometheusRule', 'Cluster']) {
      expect(kinds).toContain(kind);
    }
  });

  test('pods run as non-root on a read-only root filesystem, probed on /healthz and /readyz, with a grace period longer than the drain', () => {
    const [deployment] = templateDocuments('deployments.yaml') as { spec: { template: { spec: Record<string, any> } } }[];
    const pod = deployment!.spec.template.spec;
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    const container = pod.containers[0];
    expect(container.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
    const text = read('deploy/helm/crewswap/templates/deployments.yaml');
    expect(text).toMatch(/livenessProbe:\s+httpGet: \{ path: \{\{ \$svc\.probes\.liveness\.path/);
    expect(values.serviceDefaults).toMatchObject({ probes: { liveness: { path: '/healthz' }, readiness: { path: '/readyz' } } });
    // The kit forces an exit 10 s after SIGTERM; the pod must get longer than preStop + that.
    const defaults = values.serviceDefaults as unknown as { terminationGracePeriodSeconds: number; preStopSeconds: number };
    expect(defaults.terminationGracePeriodSeconds).toBeGreaterThan(defaults.preStopSeconds + 10);
  });

  test('migrations run as a pre-install/pre-upgrade hook Job with the migrate-only entry', () => {
    const [job] = templateDocuments('migrations-jobs.yaml') as { metadata: { annotations: Record<string, string> }; spec: any }[];
    expect(job!.metadata.annotations['helm.sh/hook']).toBe('pre-install,pre-upgrade');
    expect(job!.spec.template.spec.containers[0].command).toEqual(['node', '--enable-source-maps', 'dist/migrate.mjs']);
  });

  test('the gateway ingress streams server-sent events unbuffered', () => {
    const ingress = values.ingress as { annotations: Record<string, string> };
    expect(ingress.annotations['nginx.ingress.kubernetes.io/proxy-buffering']).toBe('off');
  });

  test('roster-ingest has its SMTP port on 2525 through its own Service', () => {
    const roster = serviceSettings(values, 'roster-ingest');
    expect(roster.publicPorts).toEqual([expect.objectContaining({ name: 'smtp', port: 2525 })]);
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
  });

  test('the chart carries the dashboards and alert rules of deploy/grafana', () => {
    expect(readdirSync(join(CHART, 'files', 'grafana', 'dashboards')).filter((file) => file.endsWith('.json')).length).toBeGreaterThan(0);
    expect(existsSync(join(CHART, 'files', 'grafana', 'alerts.yaml'))).toBe(true);
  });

  const onPath = (tool: string) => {
    try {
      execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  };
  // helm and kubeconform are not installable on our machines; where they are, they run too.
  (onPath('helm') ? test : test.skip)('helm lint and helm template | kubeconform pass', () => {
    execFileSync('helm', ['dependency', 'build', CHART], { stdio: 'pipe' });
    execFileSync('helm', ['lint', CHART], { stdio: 'pipe' });
    if (onPath('kubeconform')) {
      execFileSync('sh', ['-c', `helm template crewswap ${CHART} | kubeconform -strict -ignore-missing-schemas -summary`], { stdio: 'pipe' });
    }
  });
});

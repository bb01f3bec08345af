/**
 * The chart as real helm renders it (deploy/test/helm.ts), in the forms it is installed in, every
 * object checked against the Kubernetes schemas, and the behaviours of issue 33 ("Production at
 * airline scale") checked on the rendered objects. The runbook's commands are rehearsed against
 * the same objects.
 */
import { createHash, createPublicKey, verify } from 'node:crypto';
import { readFileSync, writeFileSync, cpSync, mkdirSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { execFileSync, spawn } from 'node:child_process';
import { parse, stringify } from 'yaml';
import { bodyLimitOf, DEFAULT_BODY_LIMIT } from '@crewswap/gateway';
import { Trip } from '@crewswap/proto';
import { chartWithDependencies, FORMS, helm, helmResult, named, ofKind, removeScratch, render, scratch, selects, tool, validate, valuesFile, type K8sObject } from './helm';
import { chartValues, read, readYaml, ROOT } from './repo';

const values = chartValues();
afterAll(removeScratch);
const rendered = Object.fromEntries(Object.entries(FORMS).map(([form, args]) => [form, render(args)])) as Record<string, K8sObject[]>;
const defaults = rendered.default!;
const local = rendered.local!;
const cnpg = rendered.cloudnativepg!;

type Container = { name: string; env?: { name: string; value?: string; valueFrom?: any }[]; ports?: { name: string; containerPort: number }[]; volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[]; command?: string[] };
const podSpec = (object: K8sObject) => object.spec.template.spec as { containers: Container[]; initContainers?: Container[]; volumes?: any[] };
const podLabels = (object: K8sObject) => object.spec.template.metadata.labels as Record<string, string>;
const containersOf = (object: K8sObject) => [...(podSpec(object).initContainers ?? []), ...podSpec(object).containers];
const envOf = (container: Container) => Object.fromEntries((container.env ?? []).filter((entry) => entry.value !== undefined).map((entry) => [entry.name, entry.value!]));
const deployment = (objects: K8sObject[], service: string) => named(objects, 'Deployment', `crewswap-${service}`)!;
const workloads = (objects: K8sObject[]) => [...ofKind(objects, 'Deployment'), ...ofKind(objects, 'Job')];

describe('the chart under real helm', () => {
  test('helm lint passes with the default values and with the local profile values', () => {
    expect(helm(['lint', chartWithDependencies()])).toMatch(/1 chart\(s\) linted, 0 chart\(s\) failed/);
    expect(helm(['lint', chartWithDependencies(), ...FORMS.local!])).toMatch(/0 chart\(s\) failed/);
  });

  test.each(Object.keys(FORMS))('in the %s form every object is valid against its Kubernetes or Prometheus operator schema', (form) => {
    const objects = rendered[form]!;
    const { errors, unchecked } = validate(objects);
    expect(errors).toEqual([]);
    // kubernetes-models has no schema for CloudNativePG's Cluster and ScheduledBackup: only their
    // identity is checked (the local form makes no backups: no object store there).
    const cnpgObjects = { cloudnativepg: ['postgresql.cnpg.io/v1 Cluster crewswap-pg', 'postgresql.cnpg.io/v1 ScheduledBackup crewswap-pg-nightly'], local: ['postgresql.cnpg.io/v1 Cluster crewswap-pg'] };
    expect(unchecked).toEqual(cnpgObjects[form as keyof typeof cnpgObjects] ?? []);
    for (const cluster of ofKind(objects, 'Cluster')) {
      expect(cluster).toMatchObject({ apiVersion: 'postgresql.cnpg.io/v1', kind: 'Cluster', metadata: { name: 'crewswap-pg' } });
      expect(cluster.spec.instances).toBeGreaterThan(0);
    }
  });

  test('the schema check refuses a broken object and names what is wrong', () => {
    const broken = structuredClone(deployment(defaults, 'trips'));
    broken.spec.replicas = 'two';
    expect(validate([broken]).errors).toEqual([expect.stringMatching(/Deployment crewswap-trips: .*replicas must be integer/)]);
  });

  test('the NATS chart is pinned to one version, locked, with the digest helm computes', () => {
    const chart = readYaml('deploy/helm/crewswap/Chart.yaml') as { dependencies: { name: string; version: string; repository: string; condition?: string }[] };
    const lock = readYaml('deploy/helm/crewswap/Chart.lock') as { dependencies: { name: string; version: string; repository: string }[]; digest: string };
    for (const dependency of chart.dependencies) expect(dependency.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(lock.dependencies).toEqual(chart.dependencies.map(({ name, version, repository }) => ({ name, version, repository })));
    // The stand-in the tests render with is the same chart name and version.
    expect(parse(readFileSync(join(__dirname, 'fixtures', 'nats', 'Chart.yaml'), 'utf8'))).toMatchObject({ name: 'nats', version: chart.dependencies[0]!.version });

    // helm's lock digest: sha256 of the JSON of [Chart.yaml's dependencies, the lock's]. Proved on a
    // chart helm can lock offline (a file:// dependency), then applied to ours.
    // Go marshals a dependency's fields in its struct's order, leaving out empty ones.
    const FIELDS = ['name', 'version', 'repository', 'condition', 'tags', 'enabled', 'import-values', 'alias'];
    const ordered = (dependencies: object[]) => dependencies.map((dependency) => Object.fromEntries(FIELDS.filter((field) => field in dependency).map((field) => [field, (dependency as Record<string, unknown>)[field]])));
    const digest = (requested: object[], locked: object[]) => `sha256:${createHash('sha256').update(JSON.stringify([ordered(requested), ordered(locked)])).digest('hex')}`;
    const dir = scratch('lock');
    cpSync(join(__dirname, 'fixtures', 'nats'), join(dir, 'nats'), { recursive: true });
    mkdirSync(join(dir, 'parent'));
    const requested = [{ name: 'nats', version: chart.dependencies[0]!.version, repository: 'file://../nats', condition: 'nats.enabled' }];
    writeFileSync(join(dir, 'parent', 'Chart.yaml'), stringify({ apiVersion: 'v2', name: 'parent', version: '0.1.0', dependencies: requested }));
    helm(['dependency', 'update', join(dir, 'parent')]);
    const helmLock = parse(readFileSync(join(dir, 'parent', 'Chart.lock'), 'utf8')) as { dependencies: object[]; digest: string };
    expect(digest(requested, helmLock.dependencies)).toBe(helmLock.digest);
    expect(lock.digest).toBe(digest(chart.dependencies, lock.dependencies));
  });
});

describe('the database survives upgrades (CloudNativePG)', () => {
  test('the Cluster is an ordinary release resource kept on uninstall, never a hook', () => {
    const cluster = named(cnpg, 'Cluster', 'crewswap-pg')!;
    expect(cluster.metadata.annotations?.['helm.sh/resource-policy']).toBe('keep');
    for (const form of Object.values(rendered)) {
      for (const object of ofKind(form, 'Cluster')) expect(Object.keys(object.metadata.annotations ?? {}).filter((key) => key.startsWith('helm.sh/hook'))).toEqual([]);
    }
  });

  test('migrations run before an upgrade, and on a first install before everything with an external database, after with CloudNativePG', () => {
    const jobs = ofKind(defaults, 'Job');
    expect(jobs.length).toBeGreaterThan(0);
    for (const job of jobs) expect(job.metadata.annotations!['helm.sh/hook']).toBe('pre-install,pre-upgrade');
    for (const job of ofKind(cnpg, 'Job')) expect(job.metadata.annotations!['helm.sh/hook']).toBe('post-install,pre-upgrade');
    for (const job of jobs) expect(podSpec(job).containers[0]!.command).toEqual(['node', '--enable-source-maps', 'dist/migrate.mjs']);
  });

  test("a migration Job's first container waits until the database accepts connections, then lets it run", async () => {
    const [job] = ofKind(cnpg, 'Job');
    const wait = podSpec(job!).initContainers!.find((container) => container.name === 'wait-for-database')!;
    expect(wait.env!.find((entry) => entry.name === 'DATABASE_URL')!.valueFrom.secretKeyRef).toEqual({ name: 'crewswap-pg-app', key: 'uri' });
    expect(wait.command!.slice(0, 2)).toEqual(['node', '-e']);

    // The same script, against a port nobody listens on yet, then a listener there.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const child = spawn(process.execPath, ['-e', wait.command![2]!], { env: { ...process.env, DATABASE_URL: `postgresql://app:secret@127.0.0.1:${port}/crewswap` }, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(child.exitCode).toBeNull();
    expect(output).toContain('waiting for the database at 127.0.0.1');
    const database = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => database.listen(port, '127.0.0.1', resolve));
    try {
      expect(await exited).toBe(0);
    } finally {
      database.close();
    }
  });
});

describe('skaffold run -p local can come up', () => {
  /** Runs dev-secrets.sh with a kubectl that records what it is asked to create (openssl is real). */
  function devSecrets(): Record<string, string> {
    const dir = scratch('dev-secrets');
    const log = join(dir, 'created');
    writeFileSync(
      join(dir, 'kubectl'),
      `#!/usr/bin/env bash
# Records the Secret dev-secrets.sh creates: one KEY=base64(value) line per key.
[ "$1" = "-n" ] && shift 2
case "$1" in
  get) exit 1 ;;
  create)
    for arg in "$@"; do
      case "$arg" in
        --from-literal=*) kv="\${arg#--from-literal=}"; printf '%s=%s\\n' "\${kv%%=*}" "$(printf '%s' "\${kv#*=}" | base64 -w0)" >> "${log}" ;;
        --from-file=*) kv="\${arg#--from-file=}"; printf '%s=%s\\n' "\${kv%%=*}" "$(base64 -w0 < "\${kv#*=}")" >> "${log}" ;;
      esac
    done ;;
  *) exit 2 ;;
esac
`,
      { mode: 0o755 },
    );
    execFileSync('bash', [join(ROOT, 'deploy', 'scripts', 'dev-secrets.sh')], { env: { ...process.env, PATH: `${dir}:${process.env.PATH}`, NAMESPACE: 'crewswap' }, stdio: 'pipe' });
    return Object.fromEntries(readFileSync(log, 'utf8').trim().split('\n').map((line) => {
      const [key, value] = [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)];
      return [key, Buffer.from(value, 'base64').toString('utf8')];
    }));
  }
  const secret = devSecrets();
  const localValues = parse(read('deploy/helm/crewswap/values-local.yaml')) as { secrets: { existingSecret: string } };

  test('dev-secrets.sh makes every key of its Secret that a container of the local profile reads', () => {
    const needed = new Set<string>();
    for (const workload of workloads(local)) {
      for (const container of containersOf(workload)) {
        for (const entry of container.env ?? []) {
          const ref = entry.valueFrom?.secretKeyRef;
          if (ref && ref.name === localValues.secrets.existingSecret && !ref.optional) needed.add(ref.key);
        }
      }
    }
    expect([...needed].sort()).toEqual(expect.arrayContaining(['JWT_PUBLIC_KEY', 'SMTP_URL', 'VAPID_PRIVATE_KEY', 'VAPID_PUBLIC_KEY']));
    expect(Object.keys(secret).sort()).toEqual(expect.arrayContaining([...needed].sort()));
  });

  test("its VAPID keys are a pair web-push accepts and signs with, verifiable with the public key", () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const webPush = require('web-push') as { getVapidHeaders(audience: string, subject: string, publicKey: string, privateKey: string, encoding: string): { Authorization: string } };
    const { Authorization } = webPush.getVapidHeaders('https://push.example.com', 'mailto:noreply@crewswap.example.com', secret.VAPID_PUBLIC_KEY!, secret.VAPID_PRIVATE_KEY!, 'aes128gcm');
    const jwt = /t=([^,]+)/.exec(Authorization)![1]!;
    const [header, payload, signature] = jwt.split('.');
    const point = Buffer.from(secret.VAPID_PUBLIC_KEY!, 'base64url');
    const publicKey = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') }, format: 'jwk' });
    expect(verify('sha256', Buffer.from(`${header}.${payload}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature!, 'base64url'))).toBe(true);
  });

  test('its SMTP_URL names a mail server the local profile deploys', () => {
    const url = new URL(secret.SMTP_URL!);
    const skaffold = readYaml('skaffold.yaml') as { profiles: { name: string; patches: { path: string; value: any }[] }[] };
    const profile = skaffold.profiles.find((candidate) => candidate.name === 'local')!;
    const manifests = profile.patches.filter((patch) => patch.path === '/manifests').flatMap((patch) => patch.value.rawYaml as string[]);
    expect(profile.patches.map((patch) => patch.path)).toContain('/deploy/kubectl');
    const objects = manifests.flatMap((file) => read(file).split(/^---$/m).map((doc) => parse(doc) as K8sObject));
    const service = objects.find((object) => object.kind === 'Service' && object.metadata.name === url.hostname)!;
    expect(service.spec.ports.map((port: { port: number }) => String(port.port))).toContain(url.port);
    const server = objects.find((object) => object.kind === 'Deployment' && selects(service.spec.selector, podLabels(object)))!;
    expect(validate(objects).errors).toEqual([]);
    expect(podSpec(server).containers[0]!.ports!.map((port) => port.name)).toContain(service.spec.ports.find((port: { port: number }) => String(port.port) === url.port).targetPort);
  });

  test('the local profile keeps one copy of each stream on its one NATS server', () => {
    expect(envOf(deployment(local, 'trips').spec.template.spec.containers[0]).NATS_STREAM_REPLICAS).toBe('1');
    expect(named(local, 'StatefulSet', 'crewswap-nats')!.spec.replicas).toBe(1);
  });
});

describe('emailed rosters (roster-ingest SMTP)', () => {
  const roster = deployment(defaults, 'roster-ingest');
  const container = podSpec(roster).containers[0]!;

  test("mail arrives on port 25 and reaches the process's own port", () => {
    const service = named(defaults, 'Service', 'crewswap-roster-ingest-smtp')!;
    expect(service.spec.type).toBe('LoadBalancer');
    const [port] = service.spec.ports;
    expect(port.port).toBe(25);
    const target = container.ports!.find((candidate) => candidate.name === port.targetPort)!;
    expect(target.containerPort).toBe(Number(envOf(container).SMTP_INGEST_PORT));
    expect(selects(service.spec.selector, podLabels(roster))).toBe(true);
  });

  test('STARTTLS is on by default (a self-signed certificate of the receiver\'s own); plain text only when a value says so', () => {
    expect(envOf(container)).toMatchObject({ SMTP_STARTTLS: 'true', SMTP_REQUIRE_TLS: 'false' });
    expect(envOf(container)).not.toHaveProperty('SMTP_TLS_KEY_FILE');
    const plain = podSpec(deployment(render(['--set', 'smtp.tls.enabled=false']), 'roster-ingest')).containers[0]!;
    expect(envOf(plain)).toMatchObject({ SMTP_STARTTLS: 'false' });
  });

  test('with a cert-manager issuer named, a valid Certificate for the MX names is made and its Secret mounted; the receiver reads renewals itself', () => {
    const objects = render(['--set', 'smtp.tls.issuer.name=letsencrypt', '--set', 'smtp.tls.dnsNames[0]=mx.crewswap.example.com']);
    const certificate = named(objects, 'Certificate', 'crewswap-smtp-tls')!;
    expect(certificate.spec).toMatchObject({ secretName: 'crewswap-smtp-tls', dnsNames: ['mx.crewswap.example.com'], issuerRef: { name: 'letsencrypt', kind: 'ClusterIssuer', group: 'cert-manager.io' } });
    const pod = podSpec(deployment(objects, 'roster-ingest'));
    const volume = pod.volumes!.find((candidate) => candidate.secret?.secretName === 'crewswap-smtp-tls')!;
    const mount = pod.containers[0]!.volumeMounts!.find((candidate) => candidate.name === volume.name)!;
    // The folder, not subPath files: a subPath mount never sees a renewed Secret.
    expect(mount).not.toHaveProperty('subPath');
    expect(envOf(pod.containers[0]!)).toEqual(expect.objectContaining({ SMTP_STARTTLS: 'true', SMTP_TLS_KEY_FILE: `${mount.mountPath}/tls.key`, SMTP_TLS_CERT_FILE: `${mount.mountPath}/tls.crt` }));
    const { errors, unchecked } = validate(objects);
    expect(errors).toEqual([]);
    expect(unchecked).toEqual([]);
    // A broken Certificate is caught by the same check.
    const broken = structuredClone(certificate);
    broken.spec.dnsNames = 'mx.crewswap.example.com';
    expect(validate([broken]).errors).toEqual([expect.stringMatching(/Certificate crewswap-smtp-tls: .*dnsNames/)]);

    const nameless = helmResult(['template', 'crewswap', chartWithDependencies(), '--set', 'smtp.tls.issuer.name=letsencrypt']);
    expect(nameless.status).not.toBe(0);
    expect(nameless.stderr).toContain('smtp.tls.issuer needs smtp.tls.dnsNames');
    expect(ofKind(defaults, 'Certificate')).toEqual([]);
  });

  test('STARTTLS: a TLS Secret is mounted read-only and named to the process, and plain text can be refused', () => {

    const objects = render(['--set', 'smtp.tls.secretName=crewswap-smtp-tls', '--set', 'smtp.tls.requireTls=true']);
    const pod = podSpec(deployment(objects, 'roster-ingest'));
    const tls = pod.containers[0]!;
    const volume = pod.volumes!.find((candidate) => candidate.secret?.secretName === 'crewswap-smtp-tls')!;
    const mount = tls.volumeMounts!.find((candidate) => candidate.name === volume.name)!;
    expect(mount.readOnly).toBe(true);
    expect(envOf(tls)).toEqual(expect.objectContaining({ SMTP_TLS_KEY_FILE: `${mount.mountPath}/tls.key`, SMTP_TLS_CERT_FILE: `${mount.mountPath}/tls.crt`, SMTP_REQUIRE_TLS: 'true' }));
    // Only the SMTP receiver gets the key.
    for (const other of ofKind(objects, 'Deployment').filter((object) => object !== deployment(objects, 'roster-ingest'))) {
      expect(JSON.stringify(other)).not.toContain('crewswap-smtp-tls');
    }
    expect(validate(objects).errors).toEqual([]);
  });

  test('refusing plain text without a certificate stops the install with a reason', () => {
    const result = helmResult(['template', 'crewswap', chartWithDependencies(), '--set', 'smtp.tls.requireTls=true']);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('smtp.tls.requireTls needs smtp.tls.secretName');
  });

  test("the SMTP Service's address can be pinned, so the MX record stays right when it is recreated", () => {
    const dir = scratch('values');
    const ports = structuredClone(values.services['roster-ingest']!.publicPorts!) as Record<string, unknown>[];
    ports[0]!.loadBalancerIP = '203.0.113.25';
    writeFileSync(join(dir, 'mx.yaml'), stringify({ services: { 'roster-ingest': { publicPorts: ports } } }));
    const service = named(render(['-f', join(dir, 'mx.yaml')]), 'Service', 'crewswap-roster-ingest-smtp')!;
    expect(service.spec.loadBalancerIP).toBe('203.0.113.25');
  });
});

describe('JetStream streams', () => {
  const natsUsers = (objects: K8sObject[]) => ofKind(objects, 'Deployment').filter((object) => 'NATS_URL' in envOf(podSpec(object).containers[0]!));

  test.each(['default', 'external NATS'])('in the %s form every service that uses NATS gets the streams\' replicas, age and size from values', (form) => {
    const users = natsUsers(rendered[form]!);
    expect(users.length).toBeGreaterThan(5);
    const streams = (values.nats as unknown as { streams: { replicas: number; maxAgeSeconds: number; maxBytes: number } }).streams;
    expect(streams.replicas).toBe(3);
    for (const user of users) {
      expect(envOf(podSpec(user).containers[0]!)).toMatchObject({
        NATS_STREAM_REPLICAS: String(streams.replicas),
        NATS_STREAM_MAX_AGE_SECONDS: String(streams.maxAgeSeconds),
        NATS_STREAM_MAX_BYTES: String(streams.maxBytes),
      });
    }
  });

  test('more copies than NATS servers stops the install with a reason', () => {
    const result = helmResult(['template', 'crewswap', chartWithDependencies(), '--set', 'nats.streams.replicas=5']);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('nats.streams.replicas (5) is more than the NATS servers the chart installs (3)');
    expect(helmResult(['template', 'crewswap', chartWithDependencies(), '--set', 'nats.config.cluster.enabled=false']).stderr).toContain('(1)');
  });

  test('an alert fires before a stream fills, from the metrics the NATS chart\'s exporter serves, which the chart switches on', () => {
    const rule = alertRules().find((candidate) => candidate.alert === 'CrewSwapStreamNearlyFull')!;
    expect(rule.expr).toMatch(/nats_stream_total_bytes[\s\S]*\/[\s\S]*nats_stream_limit_bytes > 0\) > 0\.8/);
    const nats = values.nats as unknown as { promExporter: { enabled: boolean; podMonitor: { enabled: boolean; merge: { metadata: { labels: Record<string, string> } } } } };
    expect(nats.promExporter.enabled).toBe(true);
    expect(nats.promExporter.podMonitor.enabled).toBe(true);
    expect(nats.promExporter.podMonitor.merge.metadata.labels).toEqual((values.metrics as { monitoringLabels: Record<string, string> }).monitoringLabels);
  });
});

interface Rule { alert: string; expr: string; annotations: Record<string, string> }
function alertRules(): Rule[] {
  return (readYaml('deploy/grafana/alerts.yaml') as { groups: { rules: Rule[] }[] }).groups.flatMap((group) => group.rules);
}

describe('server-sent events and the latency alert', () => {
  /** Every selector of the latency histogram's buckets in a PromQL expression. */
  const bucketSelectors = (expr: string) => [...expr.matchAll(/http_request_duration_seconds_bucket(\{[^}]*\})?/g)].map((match) => match[1] ?? '');

  test('the slow-requests alert, as Prometheus gets it, leaves SSE streams out', () => {
    const rule = named(defaults, 'PrometheusRule', 'crewswap')!.spec.groups.flatMap((group: { rules: Rule[] }) => group.rules).find((candidate: Rule) => candidate.alert === 'CrewSwapSlowRequests') as Rule;
    const selectors = bucketSelectors(rule.expr);
    expect(selectors.length).toBeGreaterThan(0);
    for (const selector of selectors) expect(selector).toContain('route!~"/api/sse.*"');
  });

  test('every latency panel leaves SSE streams out, and a panel shows how long streams last', () => {
    const dir = join(ROOT, 'deploy', 'grafana', 'dashboards');
    const exprs = ['crewswap-http.json', 'crewswap-pilots.json'].flatMap((file) => {
      const dashboard = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { panels: { title: string; targets: { expr: string }[] }[] };
      return dashboard.panels.flatMap((panel) => panel.targets.map((target) => ({ title: panel.title, expr: target.expr })));
    });
    for (const { expr } of exprs) for (const selector of bucketSelectors(expr)) expect(selector).toContain('route!~"/api/sse.*"');
    expect(exprs.some(({ expr }) => expr.includes('sse_stream_duration_seconds'))).toBe(true);
  });
});

describe("migration Jobs' pods", () => {
  test.each(['default', 'cloudnativepg'])('in the %s form no Service, PDB, Deployment or service NetworkPolicy selects them', (form) => {
    const objects = rendered[form]!;
    const jobs = ofKind(objects, 'Job');
    expect(jobs.length).toBeGreaterThan(0);
    for (const job of jobs) {
      const labels = podLabels(job);
      expect(labels['app.kubernetes.io/component']).toBe('migrate');
      for (const service of ofKind(objects, 'Service')) expect([service.metadata.name, selects(service.spec.selector, labels)]).toEqual([service.metadata.name, false]);
      for (const pdb of ofKind(objects, 'PodDisruptionBudget')) expect([pdb.metadata.name, selects(pdb.spec.selector.matchLabels, labels)]).toEqual([pdb.metadata.name, false]);
      for (const owner of ofKind(objects, 'Deployment')) expect(selects(owner.spec.selector.matchLabels, labels)).toBe(false);
      // Only the deny-all policy and their own egress to Postgres apply to them.
      const policies = ofKind(objects, 'NetworkPolicy').filter((policy) => selects(policy.spec.podSelector.matchLabels, labels)).map((policy) => policy.metadata.name);
      expect(policies.sort()).toEqual(['crewswap-default-deny', 'crewswap-migrations']);
    }
    // While every Deployment's pods are still selected by their Service, PDB and NetworkPolicy.
    for (const owner of ofKind(objects, 'Deployment')) {
      const service = owner.metadata.name;
      expect(selects(named(objects, 'Service', service)!.spec.selector, podLabels(owner))).toBe(true);
      expect(selects(named(objects, 'PodDisruptionBudget', service)!.spec.selector.matchLabels, podLabels(owner))).toBe(true);
      expect(selects(named(objects, 'NetworkPolicy', service)!.spec.podSelector.matchLabels, podLabels(owner))).toBe(true);
      expect(selects(named(objects, 'NetworkPolicy', 'crewswap-metrics')!.spec.podSelector.matchLabels, podLabels(owner))).toBe(true);
    }
  });
});

describe('monitoring is picked up', () => {
  const monitoringLabels = (values.metrics as { monitoringLabels: Record<string, string> }).monitoringLabels;

  test("the ServiceMonitor and PrometheusRule carry the label kube-prometheus-stack's Prometheus selects", () => {
    expect(monitoringLabels).toEqual({ release: 'kube-prometheus-stack' });
    for (const kind of ['ServiceMonitor', 'PrometheusRule']) expect(named(defaults, kind, 'crewswap')!.metadata.labels).toMatchObject(monitoringLabels);
    const relabelled = render(['--set', 'metrics.monitoringLabels.release=prometheus']);
    for (const kind of ['ServiceMonitor', 'PrometheusRule']) expect(named(relabelled, kind, 'crewswap')!.metadata.labels!.release).toBe('prometheus');
  });

  test("the dashboards ConfigMap is in Grafana's namespace with the sidecar's label", () => {
    const dashboards = named(defaults, 'ConfigMap', 'crewswap-dashboards')!;
    expect(dashboards.metadata.namespace).toBe('monitoring');
    expect(dashboards.metadata.labels).toMatchObject({ grafana_dashboard: '1' });
    expect(Object.keys(dashboards.data!).length).toBeGreaterThan(0);
    expect(named(render(['--set', 'metrics.dashboards.namespace=']), 'ConfigMap', 'crewswap-dashboards')!.metadata.namespace).toBe('crewswap');
  });

  test('the runbook says which labels and namespace to set', () => {
    const readme = read('deploy/README.md');
    for (const fragment of ['metrics.monitoringLabels', 'nats.promExporter.podMonitor', 'metrics.dashboards.namespace', 'searchNamespace', 'grafana_dashboard']) expect(readme).toContain(fragment);
  });
});

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
const anchorOf = (heading: string) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
const readmeAnchors = () => new Set(read('deploy/README.md').split('\n').filter((line) => /^#{1,6} /.test(line)).map((line) => anchorOf(line.replace(/^#+ /, ''))));

describe('the runbook', () => {
  test('every alert links a section of deploy/README.md that exists, and cites no other', () => {
    const anchors = readmeAnchors();
    expect(anchors).toContain('drain-smtp-roster-ingest');
    for (const rule of alertRules()) {
      const url = rule.annotations.runbook_url;
      expect([rule.alert, url]).toEqual([rule.alert, expect.stringMatching(/^deploy\/README\.md#/)]);
      expect([rule.alert, anchors.has(url!.split('#')[1]!)]).toEqual([rule.alert, true]);
      // A section named in the text ('Rotate keys') must be there too.
      for (const match of JSON.stringify(rule.annotations).matchAll(/README\.md '([^']+)'/g)) expect(anchors).toContain(anchorOf(match[1]!));
    }
  });

  test('with runbookBaseUrl the rendered alerts link the runbook page itself', () => {
    const objects = render(['--set', 'metrics.runbookBaseUrl=https://git.example.com/crewswap/blob/main/deploy/README.md']);
    const rules = named(objects, 'PrometheusRule', 'crewswap')!.spec.groups.flatMap((group: { rules: Rule[] }) => group.rules) as Rule[];
    for (const rule of rules) expect(rule.annotations.runbook_url).toMatch(/^https:\/\/git\.example\.com\/crewswap\/blob\/main\/deploy\/README\.md#[a-z-]+$/);
  });

  /** The shell commands of the README's code blocks, one per line. */
  const commands = () => [...read('deploy/README.md').matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((match) => match[1]!.split('\n')).map((line) => line.trim());

  test('every object a runbook command names exists in the rendered chart (the NATS chart\'s own excepted)', () => {
    const all = [...defaults, ...cnpg];
    const kinds: Record<string, string> = { deploy: 'Deployment', svc: 'Service', job: 'Job', hpa: 'HorizontalPodAutoscaler', cluster: 'Cluster', secret: 'Secret', endpoints: 'Service' };
    const named_: string[] = [];
    for (const command of commands().filter((line) => line.startsWith('kubectl'))) {
      for (const match of command.matchAll(/\b(deploy|svc|job|hpa|cluster|endpoints)[/ ](crewswap-[a-z0-9-]+)/g)) {
        const [, kind, name] = match;
        // The NATS chart's objects are not rendered here (a stand-in takes its place).
        if (name!.startsWith('crewswap-nats')) continue;
        named_.push(`${kind}/${name}`);
        expect([command, all.some((object) => object.kind === kinds[kind!] && object.metadata.name === name)]).toEqual([command, true]);
      }
    }
    expect(named_).toEqual(expect.arrayContaining(['deploy/crewswap-gateway', 'svc/crewswap-roster-ingest-smtp', 'deploy/crewswap-swaps', 'cluster/crewswap-pg']));
  });

  test("Install's Secret holds every key the chart's containers read from it (DATABASE_URL aside with CloudNativePG)", () => {
    const install = read('deploy/README.md').split('## Install')[1]!.split('\n## ')[0]!;
    const created = new Set([...install.matchAll(/--from-(?:file|literal)=([A-Z_]+)=/g)].map((match) => match[1]!));
    const needed = (objects: K8sObject[]) => workloads(objects).flatMap(containersOf).flatMap((container) => container.env ?? [])
      .map((entry) => entry.valueFrom?.secretKeyRef).filter((ref) => ref && ref.name === 'crewswap-secrets' && !ref.optional).map((ref) => ref.key as string);
    expect(needed(defaults).length).toBeGreaterThan(0);
    for (const key of needed(defaults)) expect(created).toContain(key);
    expect(needed(cnpg)).not.toContain('DATABASE_URL');
  });

  test("emergency shutdown's label selects every Deployment of the release, each HPA's target is the Deployment of its name, and Helm leaves their counts alone", () => {
    const shutdown = read('deploy/README.md').split('## Emergency shutdown')[1]!.split('\n## ')[0]!;
    expect(shutdown).not.toContain('--reuse-values                      # restores');
    expect(shutdown).toContain('crewswap.io/replicas-before-shutdown');
    const selector = /kubectl scale deploy -l ([\w./-]+)=([\w-]+) --replicas=0/.exec(shutdown)!;
    for (const object of ofKind(defaults, 'Deployment')) expect(object.metadata.labels![selector[1]!]).toBe(selector[2]);
    for (const hpa of ofKind(defaults, 'HorizontalPodAutoscaler')) {
      expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: hpa.metadata.name });
      // The HPA owns the count: the chart renders none, so neither upgrade nor rollback restores one.
      expect(named(defaults, 'Deployment', hpa.metadata.name)!.spec).not.toHaveProperty('replicas');
    }
  });

  test("emergency shutdown's note and restore read back the count, with kubectl's own jsonpath on a rendered Deployment", () => {
    const shutdown = read('deploy/README.md').split('## Emergency shutdown')[1]!.split('\n## ')[0]!;
    const [readCount, readNote] = [...shutdown.matchAll(/jsonpath='([^']+)'/g)].map((match) => match[1]!);
    const key = /annotate --overwrite "\$d" ([^=\s]+)="\$r"/.exec(shutdown)![1]!;
    const dir = scratch('shutdown');
    const live = structuredClone(deployment(defaults, 'trips'));
    live.spec.replicas = 4; // as its HPA left it
    writeFileSync(join(dir, 'deploy.json'), JSON.stringify(live));
    const kubectl = (...args: string[]) => execFileSync(tool('kubectl'), args, { encoding: 'utf8' });
    const count = kubectl('annotate', '--local', '-f', join(dir, 'deploy.json'), 'rehearsal=1', '-o', `jsonpath=${readCount}`);
    expect(count).toBe('4');
    writeFileSync(join(dir, 'noted.json'), kubectl('annotate', '--local', '-f', join(dir, 'deploy.json'), '--overwrite', `${key}=${count}`, '-o', 'json'));
    expect(kubectl('annotate', '--local', '-f', join(dir, 'noted.json'), 'rehearsal=1', '-o', `jsonpath=${readNote}`)).toBe('4');
  });

  test("the SMTP drain, run with kubectl on the rendered Service, takes its pods away and gives them back without touching the Service's address", () => {
    const drain = commands().filter((line) => line.startsWith('kubectl patch svc crewswap-roster-ingest-smtp'));
    expect(drain).toHaveLength(2);
    const dir = scratch('drain');
    let service = named(defaults, 'Service', 'crewswap-roster-ingest-smtp')!;
    const roster = podLabels(deployment(defaults, 'roster-ingest'));
    const states = drain.map((command) => {
      writeFileSync(join(dir, 'svc.json'), JSON.stringify(service));
      const args = shellWords(command).slice(1).filter((word) => word !== 'svc' && word !== 'crewswap-roster-ingest-smtp');
      service = JSON.parse(execFileSync(tool('kubectl'), [...args, '--local', '-f', join(dir, 'svc.json'), '-o', 'json'], { encoding: 'utf8' })) as K8sObject;
      return { selects: selects(service.spec.selector, roster), type: service.spec.type, name: service.metadata.name };
    });
    expect(states).toEqual([
      { selects: false, type: 'LoadBalancer', name: 'crewswap-roster-ingest-smtp' },
      { selects: true, type: 'LoadBalancer', name: 'crewswap-roster-ingest-smtp' },
    ]);
    expect(service.spec.selector).toEqual(named(defaults, 'Service', 'crewswap-roster-ingest-smtp')!.spec.selector);
    expect(commands().some((line) => /kubectl (delete|apply).*smtp/.test(line))).toBe(false);
  });
});

/** Words of a shell command line: whitespace-separated, with '...' and "..." quoting. */
function shellWords(line: string): string[] {
  return [...line.replace(/\s+#.*$/, '').matchAll(/'([^']*)'|"((?:[^"\\]|\\.)*)"|(\S+)/g)].map((match) => match[1] ?? match[2] ?? match[3]!);
}

describe('the public entry', () => {
  const ingresses = ofKind(defaults, 'Ingress');
  const annotations = (ingress: K8sObject) => ingress.metadata.annotations ?? {};

  test("ingress-nginx lets through a roster as large as the gateway's own limit, so the app answers an oversized one", () => {
    const bytes = (size: string) => {
      const [, number, unit] = /^(\d+)([kmg]?)$/i.exec(size)!;
      return Number(number) * 1024 ** ' kmg'.indexOf((unit || ' ').toLowerCase());
    };
    const limit = Math.max(DEFAULT_BODY_LIMIT, bodyLimitOf('/api/roster/upload'));
    const [main] = ingresses.filter((ingress) => ingress.metadata.name === 'crewswap');
    expect(bytes(annotations(main!)['nginx.ingress.kubernetes.io/proxy-body-size']!)).toBeGreaterThanOrEqual(limit);
  });

  test("each pilot's address reaches the gateway's rate limits: it trusts the ingress controller's X-Forwarded-For and nobody else's", () => {
    expect(envOf(deployment(defaults, 'gateway').spec.template.spec.containers[0]).TRUST_PROXY).toBe('1');
    // ...which holds only while nothing but the ingress controller can reach the gateway's port.
    const labels = deployment(defaults, 'gateway').spec.template.metadata.labels;
    const allowed = ofKind(defaults, 'NetworkPolicy')
      .filter((policy) => selects(policy.spec.podSelector.matchLabels, labels))
      .flatMap((policy) => policy.spec.ingress ?? [])
      .filter((rule: { ports?: { port: string | number }[] }) => (rule.ports ?? []).some((port) => port.port === 'http' || port.port === 8080));
    expect(allowed.length).toBeGreaterThan(0);
    // Cluster namespaces only (the ingress controller's, and Prometheus's for scrapes): never the internet.
    const sources = allowed.flatMap((rule: { from?: { namespaceSelector?: { matchLabels?: Record<string, string> } }[] }) => rule.from ?? [{}]);
    expect(sources.map((source) => source.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name']).sort()).toEqual(['ingress-nginx', 'monitoring']);
  });

  /** The Ingress ingress-nginx routes a path through: an Exact path first, else the longest Prefix. */
  function routeOf(path: string): K8sObject {
    const candidates = ingresses.flatMap((ingress) => ingress.spec.rules.flatMap((rule: { http: { paths: { path: string; pathType: string }[] } }) => rule.http.paths.map((entry) => ({ ingress, ...entry }))));
    const exact = candidates.find((entry) => entry.pathType === 'Exact' && entry.path === path);
    if (exact) return exact.ingress;
    const prefixes = candidates.filter((entry) => entry.pathType === 'Prefix' && (path === entry.path || path.startsWith(entry.path.endsWith('/') ? entry.path : `${entry.path}/`)));
    return prefixes.sort((a, b) => b.path.length - a.path.length)[0]!.ingress;
  }
  const refused = (ingress: K8sObject) => ['whitelist-source-range', 'allowlist-source-range'].some((key) => annotations(ingress)[`nginx.ingress.kubernetes.io/${key}`] === '127.0.0.1/32');

  test('/readyz and /metrics are refused at the ingress; the app, its API and /healthz are not', () => {
    expect(refused(routeOf('/readyz'))).toBe(true);
    expect(refused(routeOf('/metrics'))).toBe(true);
    for (const path of ['/', '/api/trips', '/api/sse/events', '/healthz', '/admin', '/sw.js']) expect([path, refused(routeOf(path))]).toEqual([path, false]);
    // ingress-nginx turns snippet annotations off by default: none is relied on.
    for (const ingress of ingresses) for (const key of Object.keys(annotations(ingress))) expect(key).not.toMatch(/snippet/);
  });
});

describe('the image and the load tests', () => {
  test('the image is Node 22 LTS pinned by digest', () => {
    const dockerfile = read('services', 'Dockerfile');
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:22-bookworm-slim@sha256:[0-9a-f]{64}$/m);
    expect(dockerfile).not.toMatch(/node:20/);
  });

  test("k6's journey picks a trip by fields trips have, and writes on every loop (offer, then withdraw)", () => {
    const journeys = read('deploy/k6/journeys.js');
    const fields = [...journeys.matchAll(/\bt\.([a-zA-Z]+)/g)].map((match) => match[1]!);
    expect(fields.length).toBeGreaterThan(0);
    for (const field of fields) expect(Object.keys(Trip.shape)).toContain(field);
    const bodies = [...journeys.matchAll(/swappable`, JSON\.stringify\((\{[^)]*\})\)/g)].map((match) => match[1]!);
    expect(bodies.map((body) => /isSwappable: (true|false)/.exec(body)![1])).toEqual(['true', 'false']);
    for (const body of bodies) expect(body).toContain('skipNotification: true');
  });

  test("k6's SSE check counts a stream as held only if an answer began arriving", () => {
    const sse = read('deploy/k6/sse.js');
    const check = /'stream held open': \(r\) => ([^\n]*)/.exec(sse)![1]!;
    expect(check).toContain('r.timings.receiving > 0');
    expect(check).not.toMatch(/\|\|/);
  });
});

test('values.yaml and values-local.yaml are the files the local form renders with', () => {
  expect(FORMS.local).toEqual(['-f', valuesFile('values.yaml'), '-f', valuesFile('values-local.yaml')]);
  const skaffold = readYaml('skaffold.yaml') as { profiles: { name: string; patches: { path: string; value: unknown }[] }[] };
  const patch = skaffold.profiles.find((profile) => profile.name === 'local')!.patches.find((candidate) => candidate.path === '/deploy/helm/releases/1/valuesFiles/-')!;
  expect(patch.value).toBe('deploy/helm/crewswap/values-local.yaml');
});

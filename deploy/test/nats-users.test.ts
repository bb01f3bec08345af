/**
 * NATS lets in only our services (issue 54): each service logs in as its own user, whose
 * permissions are proto's (files/nats-permissions.json, generated), with its password from a
 * Secret of its own; only the services' pods, the NATS servers and Prometheus reach the NATS pods;
 * TLS to NATS when asked, with cert-manager's certificate when an issuer is named.
 */
import { natsPermissions, natsPermissionsFile, natsSrePermissions, NATS_SERVICES, NATS_SRE_USER, type NatsService } from '@crewswap/proto';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { chartWithDependencies, helmResult, named, ofKind, removeScratch, render, scratch, selects, validate, type K8sObject } from './helm';
import { chartValues, read } from './repo';

const values = chartValues() as ReturnType<typeof chartValues> & {
  natsUsers: { secretPrefix: string; configMap: string };
  natsTls: { secretName: string };
  nats: { container: { env: Record<string, { valueFrom: { secretKeyRef: { name: string; key: string } } }> } };
};
afterAll(removeScratch);
const objects = render();
const envVar = (service: string) => `CREWSWAP_NATS_PASSWORD_${service.toUpperCase().replace(/-/g, '_')}`;
type Env = { name: string; value?: string; valueFrom?: { secretKeyRef: { name: string; key: string } } };
const envOf = (deployment: K8sObject) => deployment.spec.template.spec.containers[0].env as Env[];

describe('NATS users', () => {
  test('files/nats-permissions.json is what proto defines today (else run: npm run nats-permissions)', () => {
    expect(read('deploy/helm/crewswap/files/nats-permissions.json')).toBe(natsPermissionsFile());
  });

  test('every Deployment that uses NATS logs in as its own user, with the password of its own Secret, which the NATS servers read too', () => {
    const users = named(objects, 'ConfigMap', values.natsUsers.configMap)!.data!['users.conf']!;
    const withNats = ofKind(objects, 'Deployment').filter((deployment) => envOf(deployment).some((entry) => entry.name === 'NATS_URL'));
    expect(withNats.length).toBeGreaterThan(5);
    for (const deployment of withNats) {
      const service = deployment.metadata.name.replace(/^crewswap-/, '') as NatsService;
      const env = envOf(deployment);
      const secret = { name: `${values.natsUsers.secretPrefix}${service}`, key: 'password' };
      expect(env).toContainEqual({ name: 'NATS_USER', value: service });
      expect(env).toContainEqual({ name: 'NATS_PASSWORD', valueFrom: { secretKeyRef: secret } });
      expect(values.nats.container.env[envVar(service)]).toEqual({ valueFrom: { secretKeyRef: secret } });
      const line = users.split('\n').find((entry) => entry.includes(`user: "${service}"`))!;
      expect(line).toContain(`password: $${envVar(service)},`);
      expect(JSON.parse(line.split('permissions: ')[1]!.replace(/ }$/, ''))).toEqual(natsPermissions(service));
    }
    // The gateway never touches NATS, so it has no user.
    expect(envOf(named(objects, 'Deployment', 'crewswap-gateway')!).map((entry) => entry.name)).not.toContain('NATS_USER');
    expect(Object.keys(values.nats.container.env).sort()).toEqual([...Object.keys(NATS_SERVICES), NATS_SRE_USER].map(envVar).sort());
  });

  test("the operators' user sre may only ask JetStream about streams and consumers, with the password of its own Secret", () => {
    const users = named(objects, 'ConfigMap', values.natsUsers.configMap)!.data!['users.conf']!;
    const line = users.split('\n').find((entry) => entry.includes(`user: "${NATS_SRE_USER}"`))!;
    expect(line).toContain(`password: $${envVar(NATS_SRE_USER)},`);
    const permissions = JSON.parse(line.split('permissions: ')[1]!.replace(/ }$/, '')) as ReturnType<typeof natsSrePermissions>;
    expect(permissions).toEqual(natsSrePermissions());
    expect(permissions.publish.allow.every((subject) => /^\$JS\.API\.(INFO$|STREAM\.(INFO|LIST|NAMES)|CONSUMER\.(INFO|LIST|NAMES))/.test(subject))).toBe(true);
    expect(values.nats.container.env[envVar(NATS_SRE_USER)]).toEqual({ valueFrom: { secretKeyRef: { name: `${values.natsUsers.secretPrefix}${NATS_SRE_USER}`, key: 'password' } } });
    expect(read('deploy/scripts/dev-secrets.sh')).toMatch(new RegExp(`for service in [^;]*\\b${NATS_SRE_USER}\\b`));
  });

  test("the runbook's nats commands from nats-box log in as sre, with the password of its Secret", () => {
    const commands = read('deploy/README.md').split('\n').filter((line) => line.includes('crewswap-nats-box -- nats '));
    expect(commands.length).toBeGreaterThan(0);
    const secret = `${values.natsUsers.secretPrefix}${NATS_SRE_USER}`;
    for (const command of commands) expect(command).toContain(`nats --user ${NATS_SRE_USER} --password "$(kubectl get secret ${secret} -o jsonpath='{.data.password}' | base64 -d)" `);
  });

  test('nats-server accepts the users file as the chart renders it', () => {
    const dir = scratch('nats-users');
    const users = named(objects, 'ConfigMap', values.natsUsers.configMap)!.data!['users.conf']!;
    writeFileSync(join(dir, 'nats.conf'), `port: 4222\n${users}`);
    const env = { ...process.env, ...Object.fromEntries([...Object.keys(NATS_SERVICES), NATS_SRE_USER].map((service) => [envVar(service), 'a-password'])) };
    const result = spawnSync('nats-server', ['-t', '-c', join(dir, 'nats.conf')], { env, encoding: 'utf8' });
    expect([result.status, result.stderr]).toEqual([0, expect.stringMatching(/configuration file .* is valid/)]);
  });

  test('the NATS chart includes the users file and mounts it where the include points', () => {
    const nats = values.nats as unknown as { config: { merge: Record<string, string> }; container: { patch: { value: { name: string; mountPath: string } }[] }; podTemplate: { patch: { value: { name: string; configMap: { name: string } } }[] } };
    const include = nats.config.merge['00$include']!;
    const mount = nats.container.patch.map((patch) => patch.value).find((mount) => mount.name === 'crewswap-users')!;
    expect(`/etc/nats-config/${include}`).toBe(`${mount.mountPath}/users.conf`);
    expect(nats.podTemplate.patch.map((patch) => patch.value)).toContainEqual({ name: 'crewswap-users', configMap: { name: values.natsUsers.configMap } });
  });

  test('a NetworkPolicy admits to the NATS pods only the services, the NATS servers themselves and Prometheus at the exporter', () => {
    const policy = named(objects, 'NetworkPolicy', 'crewswap-nats')!;
    const natsPods = ofKind(objects, 'StatefulSet').find((set) => set.metadata.name === 'crewswap-nats')!.spec.template.metadata.labels;
    expect(selects(policy.spec.podSelector.matchLabels, natsPods)).toBe(true);
    const service = named(objects, 'Deployment', 'crewswap-trips')!.spec.template.metadata.labels;
    const rules = policy.spec.ingress as { from: { podSelector?: { matchLabels: Record<string, string> }; namespaceSelector?: unknown }[]; ports: { port: number }[] }[];
    const admits = (labels: Record<string, string>, port: number) => rules.some((rule) => rule.ports.some((p) => p.port === port) && rule.from.some((from) => from.podSelector && selects(from.podSelector.matchLabels, labels)));
    expect(admits(service, 4222)).toBe(true);
    expect(admits(natsPods, 6222)).toBe(true);
    expect(admits({ app: 'something-else' }, 4222)).toBe(false);
    expect(rules.find((rule) => rule.from.some((from) => from.namespaceSelector))?.ports).toEqual([{ port: 7777, protocol: 'TCP' }]);
    expect(validate([policy]).errors).toEqual([]);
  });

  /** TLS to NATS on: the services' switch and the NATS chart's two (checks.yaml holds them together). */
  const tlsOn = ['--set', 'natsTls.enabled=true', '--set', 'nats.config.nats.tls.enabled=true', '--set', 'nats.tlsCA.enabled=true'];
  const withNats = (rendered: K8sObject[]) => ofKind(rendered, 'Deployment').filter((deployment) => envOf(deployment).some((entry) => entry.name === 'NATS_URL'));

  test("with natsTls on, the NATS servers serve the Secret's certificate and every service connects with tls://, trusting that Secret's CA", () => {
    const tls = render(tlsOn);
    const secretName = values.natsTls.secretName;
    // The servers: the client port's tls block names files of the Secret, mounted where it says.
    const conf = JSON.parse(named(tls, 'ConfigMap', 'crewswap-nats-config')!.data!['nats.conf']!) as { tls?: Record<string, string> };
    const server = named(tls, 'StatefulSet', 'crewswap-nats')!.spec.template.spec as { containers: { name: string; volumeMounts: { name: string; mountPath: string }[] }[]; volumes: { name: string; secret?: { secretName: string } }[] };
    const natsContainer = server.containers.find((container) => container.name === 'nats')!;
    const secretOf = (file: string) => {
      const mount = natsContainer.volumeMounts.find((candidate) => dirname(file) === candidate.mountPath)!;
      return [server.volumes.find((volume) => volume.name === mount.name)!.secret!.secretName, basename(file)];
    };
    expect(secretOf(conf.tls!.cert_file!)).toEqual([secretName, 'tls.crt']);
    expect(secretOf(conf.tls!.key_file!)).toEqual([secretName, 'tls.key']);
    expect(secretOf(conf.tls!.ca_file!)).toEqual([secretName, 'ca.crt']);
    // The services: tls://, NATS_CA_FILE the ca.crt of the same Secret, mounted read-only where it points.
    const services = withNats(tls);
    expect(services.length).toBeGreaterThan(5);
    for (const deployment of services) {
      const env = envOf(deployment);
      const pod = deployment.spec.template.spec as { containers: { volumeMounts: { name: string; mountPath: string; readOnly?: boolean }[] }[]; volumes: { name: string; secret?: { secretName: string; items?: { key: string; path: string }[] } }[] };
      expect(env.find((entry) => entry.name === 'NATS_URL')!.value).toBe('tls://crewswap-nats:4222');
      const caFile = env.find((entry) => entry.name === 'NATS_CA_FILE')?.value;
      expect([deployment.metadata.name, caFile]).toEqual([deployment.metadata.name, expect.stringMatching(/\/ca\.crt$/)]);
      const mount = pod.containers[0]!.volumeMounts.find((candidate) => candidate.mountPath === dirname(caFile!))!;
      expect(mount.readOnly).toBe(true);
      const volume = pod.volumes.find((candidate) => candidate.name === mount.name)!;
      expect(volume.secret).toMatchObject({ secretName, items: [{ key: 'ca.crt', path: basename(caFile!) }] });
    }
    expect(validate(tls).errors).toEqual([]);
    // Off (the default): neither side has TLS.
    expect(JSON.parse(named(objects, 'ConfigMap', 'crewswap-nats-config')!.data!['nats.conf']!).tls).toBeUndefined();
    expect(named(objects, 'StatefulSet', 'crewswap-nats')!.spec.template.spec.volumes.map((volume: { name: string }) => volume.name)).toEqual(['config']);
    for (const deployment of withNats(objects)) {
      expect(envOf(deployment).find((entry) => entry.name === 'NATS_URL')!.value).toBe('nats://crewswap-nats:4222');
      expect(envOf(deployment).map((entry) => entry.name)).not.toContain('NATS_CA_FILE');
    }
  });

  test("natsTls and the NATS servers' TLS differing stops the install with a message naming both; an external NATS is the operator's", () => {
    const refused = (sets: string[]) => {
      const result = helmResult(['template', 'crewswap', chartWithDependencies(), ...sets.flatMap((set) => ['--set', set])]);
      expect([sets, result.status]).toEqual([sets, 1]);
      return result.stderr;
    };
    const mismatch = /natsTls\.enabled is (true|false) but nats\.(config\.nats\.tls|tlsCA)\.enabled is (true|false): TLS to NATS needs both sides\. Set natsTls\.enabled, nats\.config\.nats\.tls\.enabled and nats\.tlsCA\.enabled alike/;
    expect(refused(['natsTls.enabled=true'])).toMatch(/natsTls\.enabled is true but nats\.config\.nats\.tls\.enabled is false/);
    expect(refused(['nats.config.nats.tls.enabled=true'])).toMatch(/natsTls\.enabled is false but nats\.config\.nats\.tls\.enabled is true/);
    expect(refused(['natsTls.enabled=true', 'nats.config.nats.tls.enabled=true'])).toMatch(/natsTls\.enabled is true but nats\.tlsCA\.enabled is false/);
    for (const sets of [['nats.tlsCA.enabled=true'], ['nats.config.nats.tls.enabled=true', 'nats.tlsCA.enabled=true']]) expect(refused(sets)).toMatch(mismatch);
    expect(refused([...tlsOn.filter((arg) => arg !== '--set'), 'nats.config.nats.tls.secretName=other-tls'])).toContain('nats.config.nats.tls.secretName (other-tls) must be natsTls.secretName (crewswap-nats-tls)');
    // NATS installed elsewhere (natsUrl): only the services' side is the chart's.
    const external = render(['--set', 'nats.enabled=false', '--set', 'natsUrl=tls://nats.messaging:4222', '--set', 'natsTls.enabled=true']);
    expect(envOf(named(external, 'Deployment', 'crewswap-trips')!)).toContainEqual({ name: 'NATS_CA_FILE', value: '/etc/crewswap/nats-tls/ca.crt' });
  });

  test('with natsTls on and an issuer named, cert-manager makes the Secret both sides read', () => {
    const tls = render([...tlsOn, '--set', 'natsTls.issuer.name=letsencrypt']);
    expect(named(tls, 'Certificate', 'crewswap-nats-tls')!.spec).toMatchObject({ secretName: 'crewswap-nats-tls', issuerRef: { name: 'letsencrypt', kind: 'ClusterIssuer' } });
    expect(ofKind(objects, 'Certificate').filter((object) => object.metadata.name === 'crewswap-nats-tls')).toEqual([]);
  });
});

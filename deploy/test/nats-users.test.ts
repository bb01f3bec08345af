/**
 * NATS lets in only our services (issue 54): each service logs in as its own user, whose
 * permissions are proto's (files/nats-permissions.json, generated), with its password from a
 * Secret of its own; only the services' pods, the NATS servers and Prometheus reach the NATS pods;
 * TLS to NATS when asked, with cert-manager's certificate when an issuer is named.
 */
import { natsPermissions, natsPermissionsFile, natsSrePermissions, NATS_SERVICES, NATS_SRE_USER, type NatsService } from '@crewswap/proto';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { named, ofKind, removeScratch, render, scratch, selects, validate, type K8sObject } from './helm';
import { chartValues, read } from './repo';

const values = chartValues() as ReturnType<typeof chartValues> & {
  natsUsers: { secretPrefix: string; configMap: string };
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

  test('with natsTls on, services connect with tls:// and trust the CA of its Secret; with an issuer named, cert-manager makes it', () => {
    const tls = render(['--set', 'natsTls.enabled=true', '--set', 'natsTls.issuer.name=letsencrypt']);
    const trips = named(tls, 'Deployment', 'crewswap-trips')!;
    expect(envOf(trips)).toEqual(expect.arrayContaining([{ name: 'NATS_URL', value: 'tls://crewswap-nats:4222' }, { name: 'NATS_CA_FILE', value: '/etc/crewswap/nats-tls/ca.crt' }]));
    expect(trips.spec.template.spec.volumes).toContainEqual(expect.objectContaining({ name: 'nats-tls', secret: expect.objectContaining({ secretName: 'crewswap-nats-tls' }) }));
    expect(named(tls, 'Certificate', 'crewswap-nats-tls')!.spec).toMatchObject({ secretName: 'crewswap-nats-tls', issuerRef: { name: 'letsencrypt', kind: 'ClusterIssuer' } });
    expect(ofKind(objects, 'Certificate').filter((object) => object.metadata.name === 'crewswap-nats-tls')).toEqual([]);
  });
});

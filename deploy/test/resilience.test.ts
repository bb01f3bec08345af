/**
 * Issue 54, "one lost node loses nothing": in every form the chart is installed in, every
 * Deployment spreads over zones then nodes, the NATS servers never share a node, every container
 * of NATS has resources, every disruption budget still lets a drain through, and the
 * CloudNativePG cluster keeps its instances apart with budgets of its own.
 */
import { FORMS, named, ofKind, removeScratch, render, selects, type K8sObject } from './helm';

afterAll(removeScratch);
const rendered = Object.fromEntries(Object.entries(FORMS).map(([form, args]) => [form, render(args)])) as Record<string, K8sObject[]>;
const forms = Object.keys(FORMS);
const podLabels = (object: K8sObject) => object.spec.template.metadata.labels as Record<string, string>;

/** The fewest pods a workload runs: its HPA's minimum where one owns the count. */
function fewestReplicas(objects: K8sObject[], workload: K8sObject): number {
  const hpa = ofKind(objects, 'HorizontalPodAutoscaler').find((candidate) => candidate.spec.scaleTargetRef.name === workload.metadata.name && candidate.spec.scaleTargetRef.kind === workload.kind);
  return hpa ? hpa.spec.minReplicas : (workload.spec.replicas ?? 1);
}

/** How many of `replicas` pods a budget lets a drain evict at once (Kubernetes rounds a percentage of maxUnavailable up). */
function disruptionsAllowed(pdb: K8sObject, replicas: number): number {
  const amount = (value: number | string, round: (n: number) => number) => (typeof value === 'string' && value.endsWith('%') ? round((replicas * Number.parseInt(value, 10)) / 100) : Number(value));
  if (pdb.spec.maxUnavailable !== undefined) return amount(pdb.spec.maxUnavailable, Math.ceil);
  return replicas - amount(pdb.spec.minAvailable, Math.ceil);
}

describe.each(forms)('in the %s form', (form) => {
  const objects = rendered[form]!;
  const deployments = ofKind(objects, 'Deployment');

  test('every Deployment spreads its pods over zones (as it can), then nodes (never two on one while another node has room)', () => {
    expect(deployments.length).toBeGreaterThan(5);
    for (const deployment of deployments) {
      const constraints = deployment.spec.template.spec.topologySpreadConstraints as { topologyKey: string; whenUnsatisfiable: string; maxSkew: number; labelSelector: { matchLabels: Record<string, string> } }[];
      expect([deployment.metadata.name, constraints?.map((constraint) => [constraint.topologyKey, constraint.whenUnsatisfiable, constraint.maxSkew])]).toEqual([
        deployment.metadata.name,
        [['topology.kubernetes.io/zone', 'ScheduleAnyway', 1], ['kubernetes.io/hostname', 'DoNotSchedule', 1]],
      ]);
      // Each counts this service's pods, and only them.
      for (const constraint of constraints) {
        expect(selects(constraint.labelSelector.matchLabels, podLabels(deployment))).toBe(true);
        for (const other of deployments.filter((candidate) => candidate !== deployment)) expect(selects(constraint.labelSelector.matchLabels, podLabels(other))).toBe(false);
      }
    }
  });

  test('every Deployment and the NATS servers have a disruption budget, and each lets a drain evict at least one pod at its fewest replicas', () => {
    const workloads = [...deployments, ...ofKind(objects, 'StatefulSet')];
    const budgets = ofKind(objects, 'PodDisruptionBudget');
    for (const workload of workloads) {
      const own = budgets.filter((pdb) => selects(pdb.spec.selector.matchLabels, podLabels(workload)));
      expect([workload.metadata.name, own.length]).toEqual([workload.metadata.name, 1]);
    }
    for (const pdb of budgets) {
      const covered = workloads.filter((workload) => selects(pdb.spec.selector.matchLabels, podLabels(workload)));
      expect(covered.length).toBe(1);
      const replicas = fewestReplicas(objects, covered[0]!);
      expect([pdb.metadata.name, replicas, disruptionsAllowed(pdb, replicas) >= 1]).toEqual([pdb.metadata.name, replicas, true]);
    }
  });

  const nats = named(objects, 'StatefulSet', 'crewswap-nats');
  (nats ? test : test.skip)('no two NATS servers share a node, and every NATS container has requests and a memory limit', () => {
    const pod = nats!.spec.template.spec;
    const required = pod.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution as { topologyKey: string; labelSelector: { matchLabels: Record<string, string> } }[];
    expect(required.map((term) => term.topologyKey)).toEqual(['kubernetes.io/hostname']);
    expect(selects(required[0]!.labelSelector.matchLabels, podLabels(nats!))).toBe(true);
    // nats-box (the chart's client pod) is not a server: it may sit beside one.
    expect(selects(required[0]!.labelSelector.matchLabels, { ...podLabels(nats!), 'app.kubernetes.io/component': 'nats-box' })).toBe(false);
    const names = (pod.containers as { name: string }[]).map((container) => container.name);
    expect(names).toEqual(expect.arrayContaining(['nats', 'reloader', ...(form === 'local' ? [] : ['prom-exporter'])]));
    for (const container of pod.containers as { name: string; resources: { requests?: Record<string, string>; limits?: Record<string, string> } }[]) {
      expect([container.name, Object.keys(container.resources.requests ?? {}).sort(), Object.keys(container.resources.limits ?? {})]).toEqual([container.name, ['cpu', 'memory'], ['memory']]);
    }
  });

  const cluster = ofKind(objects, 'Cluster')[0];
  (cluster ? test : test.skip)("the CloudNativePG instances are on different nodes, with the operator's budgets wherever one can be drained", () => {
    expect(cluster!.spec.affinity).toEqual({ enablePodAntiAffinity: true, topologyKey: 'kubernetes.io/hostname', podAntiAffinityType: 'required' });
    // One instance: a budget would block every drain of its node.
    expect(cluster!.spec.enablePDB).toBe(cluster!.spec.instances > 1);
  });
});

test('the default install runs three NATS servers and three Postgres instances, so one lost node leaves a majority of each', () => {
  expect(named(rendered.default!, 'StatefulSet', 'crewswap-nats')!.spec.replicas).toBe(3);
  expect(ofKind(rendered.cloudnativepg!, 'Cluster')[0]!.spec.instances).toBe(3);
});

// Reads Kubernetes objects (JSON array) on stdin and validates each against its schema:
// kubernetes-models for the built-in kinds, @kubernetes-models/prometheus-operator for
// ServiceMonitor, PodMonitor and PrometheusRule, @kubernetes-models/cert-manager for Certificate. Prints { errors, unchecked } as JSON.
// Run by deploy/test/helm.ts in a child process, since both packages are ES modules only.
const input = await new Promise((resolve) => {
  let text = '';
  process.stdin.on('data', (chunk) => (text += chunk)).on('end', () => resolve(text));
});

const CRD_PACKAGES = { 'monitoring.coreos.com': '@kubernetes-models/prometheus-operator', 'cert-manager.io': '@kubernetes-models/cert-manager' };

async function modelOf({ apiVersion, kind }) {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  const specifier = CRD_PACKAGES[group] ? `${CRD_PACKAGES[group]}/${group}/${version}` : `kubernetes-models/${group ? `${group}/` : ''}${version}`;
  try {
    return (await import(specifier))[kind];
  } catch {
    return undefined;
  }
}

const errors = [];
const unchecked = [];
for (const object of JSON.parse(input)) {
  const name = `${object.kind} ${object.metadata?.name}`;
  const Model = await modelOf(object);
  if (!Model) {
    unchecked.push(`${object.apiVersion} ${name}`);
    continue;
  }
  try {
    new Model(object).validate();
  } catch (error) {
    errors.push(`${name}: ${error.message}`);
  }
}
process.stdout.write(JSON.stringify({ errors, unchecked }));

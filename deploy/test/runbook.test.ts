/**
 * Issue 54: the runbook's shell blocks are pasted by an SRE at a bad moment, so each must parse,
 * and the ones that change the cluster are run here against what the chart renders: kubectl with
 * --local or --dry-run=client (no cluster here), helm template in place of helm upgrade, and
 * stand-ins for the commands that only read a live cluster (kubectl get, logs, wait). Each
 * block is run as written, from the README.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { chartWithDependencies, named, ofKind, removeScratch, render, scratch, selects, tool, validate, type K8sObject } from './helm';
import { chartValues, read, ROOT } from './repo';

afterAll(removeScratch);
const README = read('deploy/README.md');

/** The ```sh and ```bash blocks of a section of the runbook (or of all of it), in order. */
function blocks(section?: string): string[] {
  const text = section ? README.split(`\n## ${section}\n`)[1]!.split('\n## ')[0]! : README;
  return [...text.matchAll(/```(?:sh|bash)\n([\s\S]*?)```/g)].map((match) => match[1]!);
}

/**
 * Runs a block with bash in a scratch folder, `stubs` (name -> script body) first on the PATH.
 * Returns the folder, for what the stubs wrote there.
 */
function runBlock(block: string, stubs: Record<string, string>, env: Record<string, string> = {}): { dir: string; stdout: string } {
  const dir = scratch('runbook');
  const bin = join(dir, 'bin');
  execFileSync('mkdir', ['-p', bin]);
  for (const [name, body] of Object.entries(stubs)) writeFileSync(join(bin, name), `#!/usr/bin/env bash\n${body}\n`, { mode: 0o755 });
  const result = spawnSync('bash', ['-euo', 'pipefail', '-c', block], { cwd: dir, encoding: 'utf8', env: { ...process.env, ...env, PATH: `${bin}:${process.env.PATH}`, STUB_DIR: dir } });
  if (result.status !== 0) throw new Error(`block failed (${result.status}): ${result.stderr}\n${block}`);
  return { dir, stdout: result.stdout };
}

test('every shell block of the runbook parses (bash -n)', () => {
  const all = blocks();
  expect(all.length).toBeGreaterThan(15);
  for (const block of all) {
    const result = spawnSync('bash', ['-n'], { input: block, encoding: 'utf8' });
    expect([block, result.status, result.stderr]).toEqual([block, 0, '']);
  }
});

/**
 * A block's shell words outside comments, quotes and here-documents: where a `<name>` left for
 * the reader would be a redirection (`kubectl delete pvc <claim>` reads a file named `claim`).
 */
function unquotedShell(block: string): string {
  const text = block.replace(/<<-?\s*'?(\w+)'?[^\n]*\n[\s\S]*?\n\1\n/g, '\n');
  let out = '';
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (char === '\\') i += 1;
    else if (char === "'") i = text.indexOf("'", i + 1);
    else if (char === '"') {
      for (i += 1; i < text.length && text[i] !== '"'; i += 1) if (text[i] === '\\') i += 1;
    } else if (char === '#' && (i === 0 || /\s/.test(text[i - 1]!))) i = text.indexOf('\n', i) - 1;
    else out += char;
    if (i < 0) break;
  }
  return out;
}
const placeholders = (block: string) => unquotedShell(block).match(/(?<![<\d])<(?![<(])[A-Za-z][^<>\n]*>/g) ?? [];

test('no shell block leaves a <placeholder> where a paste would read it as a redirection (a variable set the line before instead)', () => {
  expect(placeholders('kubectl delete pvc <claim of the server> --wait=false # <fine>')).toEqual(['<claim of the server>']);
  expect(placeholders("curl https://<host>/x -d '{\"password\":\"<quoted>\"}' \"<also quoted>\" && cat <<'EOF' > out\n<in a here-document>\nEOF\nbase64 -w0 < jwt.pem 2>&1")).toEqual(['<host>']);
  expect(blocks().flatMap(placeholders)).toEqual([]);
  const [, lost] = blocks('A node was lost');
  expect(lost).toMatch(/^CLAIM=\S+$/m);
  expect(lost).toContain('kubectl delete pvc "$CLAIM" --wait=false');
});

describe('NATS users', () => {
  const objects = render();
  const [create, rotate] = blocks('NATS users');
  /** Every NATS password Secret the rendered chart reads: the services' NATS_PASSWORD and the NATS servers' environment. */
  const natsSecrets = () => {
    const fromServices = ofKind(objects, 'Deployment').flatMap((deployment) => deployment.spec.template.spec.containers[0].env as { name: string; valueFrom?: { secretKeyRef: { name: string; key: string } } }[]).filter((entry) => entry.name === 'NATS_PASSWORD').map((entry) => entry.valueFrom!.secretKeyRef);
    const values = chartValues() as unknown as { nats: { container: { env: Record<string, { valueFrom: { secretKeyRef: { name: string; key: string } } }> } } };
    const fromServers = Object.values(values.nats.container.env).map((entry) => entry.valueFrom.secretKeyRef);
    expect(fromServices.length).toBeGreaterThan(5);
    for (const ref of fromServices) expect(fromServers).toContainEqual(ref);
    return fromServers;
  };

  test("the Secrets made as written (kubectl --dry-run=client) are every one the chart's services and NATS servers read, each a random password of its own", () => {
    const kubectl = tool('kubectl');
    const { dir } = runBlock(create!, {
      // create secret generic <name> ... -> the same, --dry-run=client, one file per Secret.
      kubectl: `[ "$1 $2 $3" = "create secret generic" ] || exit 1; KUBECONFIG=/dev/null "${kubectl}" "$@" --dry-run=client -o json > "$STUB_DIR/secret-$4.json"`,
    });
    const secrets = readdirSync(dir).filter((file) => file.startsWith('secret-')).map((file) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as K8sObject);
    const refs = natsSecrets();
    expect(secrets.map((secret) => secret.metadata.name).sort()).toEqual(refs.map((ref) => ref.name).sort());
    const passwords = secrets.map((secret) => {
      expect([secret.kind, Object.keys(secret.data!)]).toEqual(['Secret', [refs.find((ref) => ref.name === secret.metadata.name)!.key]]);
      return Buffer.from(secret.data!.password!, 'base64').toString();
    });
    for (const password of passwords) expect(password).toMatch(/^[A-Za-z0-9+/]{32}$/);
    expect(new Set(passwords).size).toBe(passwords.length);
  });

  test("the password rotation patches only the password of trips' Secret (kubectl patch --local), then restarts the NATS servers and trips", () => {
    const kubectl = tool('kubectl');
    const dir = scratch('nats-secret');
    const ref = natsSecrets().find((candidate) => candidate.name.endsWith('-trips'))!;
    const before = { apiVersion: 'v1', kind: 'Secret', metadata: { name: ref.name, namespace: 'crewswap', labels: { kept: 'yes' } }, data: { [ref.key]: Buffer.from('old-password').toString('base64') } };
    writeFileSync(join(dir, 'secret.json'), JSON.stringify(before));
    const { dir: ran } = runBlock(rotate!, {
      kubectl: `if [ "$1 $2 $3" = "patch secret ${ref.name}" ]; then shift 3; "${kubectl}" patch --local -f "${join(dir, 'secret.json')}" "$@" -o json > "$STUB_DIR/patched.json"; else echo "$*" >> "$STUB_DIR/other"; fi`,
    });
    const after = JSON.parse(readFileSync(join(ran, 'patched.json'), 'utf8')) as K8sObject;
    expect(after.metadata).toMatchObject(before.metadata);
    expect(Object.keys(after.data!)).toEqual([ref.key]);
    const password = Buffer.from(after.data![ref.key]!, 'base64').toString();
    expect(password).toMatch(/^[A-Za-z0-9+/]{32}$/);
    const restarted = readFileSync(join(ran, 'other'), 'utf8').trim().split('\n');
    expect(restarted).toEqual(['rollout restart statefulset/crewswap-nats', 'rollout status statefulset/crewswap-nats', 'rollout restart deploy/crewswap-trips']);
    // What they restart: the NATS servers (which read the password at start) and the Deployment whose NATS_PASSWORD is that Secret.
    expect(named(objects, 'StatefulSet', 'crewswap-nats')).toBeDefined();
    const trips = named(objects, 'Deployment', 'crewswap-trips')!;
    expect(trips.spec.template.spec.containers[0].env).toContainEqual({ name: 'NATS_PASSWORD', valueFrom: { secretKeyRef: ref } });
  });
});

describe('Drain SMTP', () => {
  const [drain] = blocks('Drain SMTP (roster-ingest)');
  const wait = drain!.split('\n').find((line) => line.startsWith('until '))!;

  test("the wait reads log lines the SMTP receiver really writes, from roster-ingest's pods only", () => {
    const alternatives = /"msg":"roster mail \(([^)]+)\)"/.exec(wait)![1]!.split('|');
    const source = readdirSync(join(ROOT, 'services', 'roster-ingest', 'src'), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .map((file) => readFileSync(join(ROOT, 'services', 'roster-ingest', 'src', file), 'utf8'))
      .join('\n');
    for (const alternative of alternatives) expect(source).toMatch(new RegExp(`log\\.info\\([^\\n]*'roster mail ${alternative}'\\)`));
    const selector = Object.fromEntries(/kubectl logs -l (\S+)/.exec(wait)![1]!.split(',').map((pair) => pair.split('=') as [string, string]));
    const objects = render();
    const pods = [...ofKind(objects, 'Deployment'), ...ofKind(objects, 'Job')].filter((workload) => selects(selector, workload.spec.template.metadata.labels));
    expect(pods.map((workload) => workload.metadata.name)).toEqual(['crewswap-roster-ingest']);
  });

  test('the wait goes on while pods log mail taken in, and ends once two minutes pass without', () => {
    // kubectl logs answers with a queued mail twice, a refused one once, then nothing.
    const line = (msg: string) => JSON.stringify({ level: 30, name: 'roster-ingest', msg });
    const { dir } = runBlock(wait, {
      kubectl: `n=$(cat "$STUB_DIR/calls" 2>/dev/null || echo 0); echo $((n + 1)) > "$STUB_DIR/calls"
case $n in 0|1) echo '${line('roster mail queued')}' ;; 2) echo '${line('roster mail refused in the SMTP transaction')}' ;; *) echo '${line('SMTP receiver listening')}' ;; esac`,
      sleep: 'exit 0',
    });
    expect(readFileSync(join(dir, 'calls'), 'utf8').trim()).toBe('4');
  });
});

describe('Rotate keys', () => {
  test('the block replaces the two signing keys of the Secret with a matching new pair and leaves every other key alone', () => {
    const [block] = blocks('Rotate keys');
    const dir = scratch('secret');
    const before = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'crewswap-secrets', namespace: 'crewswap' }, data: { JWT_PRIVATE_KEY: 'b2xk', JWT_PUBLIC_KEY: 'b2xk', ADMIN_PASSWORD: Buffer.from('kept').toString('base64') } };
    writeFileSync(join(dir, 'secret.json'), JSON.stringify(before));
    const kubectl = tool('kubectl');
    const { dir: ran } = runBlock(block!, {
      // patch secret crewswap-secrets ... -> the same patch, --local, on the Secret above.
      kubectl: `if [ "$1 $2 $3" = "patch secret crewswap-secrets" ]; then shift 3; "${kubectl}" patch --local -f "${join(dir, 'secret.json')}" "$@" -o json > "$STUB_DIR/patched.json"; else echo "$*" >> "$STUB_DIR/other"; fi`,
    });
    const after = JSON.parse(readFileSync(join(ran, 'patched.json'), 'utf8')) as { data: Record<string, string> };
    expect(after.data.ADMIN_PASSWORD).toBe(before.data.ADMIN_PASSWORD);
    const privatePem = Buffer.from(after.data.JWT_PRIVATE_KEY!, 'base64').toString();
    const publicPem = Buffer.from(after.data.JWT_PUBLIC_KEY!, 'base64').toString();
    expect(createPublicKey(createPrivateKey(privatePem)).export({ type: 'spki', format: 'pem' })).toBe(publicPem);
    expect(existsSync(join(ran, 'jwt-private.pem'))).toBe(false);
    expect(readFileSync(join(ran, 'other'), 'utf8')).toContain('rollout restart deploy -l app.kubernetes.io/part-of=crewswap');
  });
});

describe('Back up and restore the database', () => {
  const cnpg = render(['--set', 'database.cnpg.enabled=true']);
  const cluster = ofKind(cnpg, 'Cluster')[0]!;
  const [secretBlock, checkBlock, restoreBlock] = blocks('Back up and restore the database');

  test("the object store Secret made as written (kubectl --dry-run=client) has the name and keys the cluster's backup reads", () => {
    const line = secretBlock!.trim();
    const words = [...line.matchAll(/'([^']*)'|(\S+)/g)].map((match) => match[1] ?? match[2]!).slice(1);
    const secret = JSON.parse(execFileSync(tool('kubectl'), [...words, '--dry-run=client', '-o', 'json'], { encoding: 'utf8', env: { ...process.env, KUBECONFIG: '/dev/null' } })) as K8sObject;
    const credentials = cluster.spec.backup.barmanObjectStore.s3Credentials;
    for (const ref of [credentials.accessKeyId, credentials.secretAccessKey]) {
      expect(secret.metadata.name).toBe(ref.name);
      expect(Object.keys(secret.data!)).toContain(ref.key);
    }
    expect(named(cnpg, 'ScheduledBackup', `${cluster.metadata.name}-nightly`)!.spec.cluster.name).toBe(cluster.metadata.name);
  });

  test('a backup taken by hand names the rendered cluster', () => {
    const { dir } = runBlock(checkBlock!, { kubectl: '[ "$1" = apply ] && cat > "$STUB_DIR/applied.yaml"; exit 0' });
    const backup = parse(readFileSync(join(dir, 'applied.yaml'), 'utf8')) as K8sObject;
    expect(backup).toMatchObject({ apiVersion: cluster.apiVersion, kind: 'Backup', spec: { method: 'barmanObjectStore', cluster: { name: cluster.metadata.name } } });
  });

  test('the restore, run as written with helm template for helm upgrade, makes a new cluster from the old one\'s backups up to the time, and moves every service to it', () => {
    const prod = scratch('prod');
    writeFileSync(join(prod, 'prod.yaml'), 'database:\n  cnpg:\n    enabled: true\n');
    const { dir } = runBlock(`cp "${join(prod, 'prod.yaml')}" prod.yaml\n${restoreBlock}`, {
      helm: `args=(); for a in "$@"; do case "$a" in upgrade) args+=(template) ;; deploy/helm/crewswap) args+=("${chartWithDependencies()}") ;; *) args+=("$a") ;; esac; done
"${tool('helm')}" "\${args[@]}" > "$STUB_DIR/rendered.yaml"`,
      kubectl: 'echo "$*" >> "$STUB_DIR/kubectl"',
    });
    const objects = parseAllDocuments(readFileSync(join(dir, 'rendered.yaml'), 'utf8')).map((doc) => doc.toJS() as K8sObject).filter(Boolean);
    const clusters = ofKind(objects, 'Cluster');
    expect(clusters.map((one) => one.metadata.name)).toEqual([expect.stringMatching(/^crewswap-pg-\d{12}$/)]);
    const restored = clusters[0]!;
    const targetTime = /TARGET_TIME=(\S+)/.exec(restoreBlock!)![1];
    expect(restored.spec.bootstrap).toEqual({ recovery: { source: 'crewswap-pg', database: 'crewswap', owner: 'crewswap', recoveryTarget: { targetTime } } });
    expect(restored.spec.externalClusters).toEqual([{ name: 'crewswap-pg', barmanObjectStore: { ...cluster.spec.backup.barmanObjectStore, serverName: 'crewswap-pg' } }]);
    expect(restored.metadata.annotations?.['helm.sh/resource-policy']).toBe('keep');
    const refs = ofKind(objects, 'Deployment').flatMap((deployment) => deployment.spec.template.spec.containers[0].env).filter((entry: { name: string }) => entry.name === 'DATABASE_URL');
    expect(refs.length).toBeGreaterThan(5);
    for (const ref of refs) expect(ref.valueFrom.secretKeyRef).toEqual({ name: `${restored.metadata.name}-app`, key: 'uri' });
    expect(ofKind(objects, 'Job')).toEqual([]);
    expect(validate(objects).errors).toEqual([]);
    expect(readFileSync(join(dir, 'kubectl'), 'utf8')).toContain(`wait --for=condition=Ready cluster/${restored.metadata.name}`);
  });

  test('a restore onto its own source is refused before anything changes', () => {
    expect(() => render(['--set', 'database.cnpg.enabled=true', '--set', 'database.cnpg.recovery.enabled=true', '--set', 'database.cnpg.recovery.source=crewswap-pg'])).toThrow(/set database.cnpg.name to a name other than its source/);
  });

  test('with backups off the install says so; on, it names where they go', () => {
    const notes = (args: string[]) => execFileSync(tool('helm'), ['install', 'crewswap', chartWithDependencies(), '--dry-run=client', '--set', 'database.cnpg.enabled=true', ...args], { encoding: 'utf8' }).split('NOTES:')[1]!;
    expect(notes(['--set', 'database.cnpg.backup.enabled=false'])).toContain('WARNING: database.cnpg.backup.enabled is false');
    expect(notes([])).toContain('s3://crewswap-backups/postgres');
    expect(notes([])).not.toContain('WARNING');
  });
});

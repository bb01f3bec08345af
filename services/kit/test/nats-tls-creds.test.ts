/**
 * NATS_CA_FILE and NATS_CREDS (issue 54): a service reads them from its environment (the base
 * config), and the kit connects with them. On a private nats-server that serves TLS with a
 * certificate of a CA made here (openssl) and lets in only users of its own operator (NKey/JWT,
 * a creds file as `nsc` writes one), a service connects with both, and fails without either.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect as connectTcp } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { nkeys } from 'nats';
import { natsPermissions, SUBJECTS } from '@crewswap/proto';
import { baseConfigSchema, connectBus, ensureStreams, loadConfig, natsCredentials, type Bus } from '@crewswap/kit';
import { uniqueName, freePort } from '@crewswap/kit-testing';

jest.setTimeout(60_000);

/** Signing keys as nkeys.js makes them (nats re-exports it). */
interface KeyPair {
  getPublicKey(): string;
  getSeed(): Uint8Array;
  sign(data: Uint8Array): Uint8Array;
}

const base64url = (value: string | Uint8Array) => Buffer.from(value).toString('base64url');
/** A NATS JWT (v2): `issuer` signs the claims about `subject`. */
function natsJwt(issuer: KeyPair, subject: string, name: string, nats: Record<string, unknown>): string {
  const header = base64url(JSON.stringify({ typ: 'JWT', alg: 'ed25519-nkey' }));
  const claims = base64url(JSON.stringify({ jti: randomUUID(), iat: Math.floor(Date.now() / 1000), iss: issuer.getPublicKey(), sub: subject, name, nats: { ...nats, version: 2 } }));
  return `${header}.${claims}.${base64url(issuer.sign(Buffer.from(`${header}.${claims}`)))}`;
}
/** A user of `account`, with proto's permissions for `service`, as the creds file nsc writes. */
function credsFile(account: KeyPair, service: 'links', prefix: string): string {
  const user = nkeys.createUser() as KeyPair;
  const permissions = natsPermissions(service, prefix);
  const jwt = natsJwt(account, user.getPublicKey(), service, { type: 'user', pub: permissions.publish, sub: permissions.subscribe, subs: -1, data: -1, payload: -1 });
  return `-----BEGIN NATS USER JWT-----\n${jwt}\n------END NATS USER JWT------\n\n-----BEGIN USER NKEY SEED-----\n${Buffer.from(user.getSeed()).toString()}\n------END USER NKEY SEED------\n`;
}

describe('NATS over TLS with a creds file, from the environment', () => {
  const dir = mkdtempSync(join(tmpdir(), 'crewswap-nats-tls-'));
  const prefix = uniqueName('tls');
  const file = (name: string) => join(dir, name);
  const buses: Bus[] = [];
  let url = '';
  let stop = async () => undefined as unknown;
  const log = pino({ level: 'silent' });

  /** The base config from these variables, and the kit's connection with its credentials: what runtime.ts does. */
  async function connectWith(env: Record<string, string>): Promise<Bus> {
    const config = loadConfig(baseConfigSchema, { NATS_URL: url, NATS_PREFIX: prefix, ...env });
    const bus = await connectBus({ url: config.NATS_URL, prefix: config.NATS_PREFIX, name: 'links', log, credentials: natsCredentials(config) });
    buses.push(bus);
    return bus;
  }

  beforeAll(async () => {
    // A CA, and a server certificate it signs for 127.0.0.1 (what cert-manager puts in the chart's Secret).
    const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
    const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
    openssl('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '1', '-subj', '/CN=crewswap test CA');
    openssl('req', ...ec, '-keyout', 'tls.key', '-out', 'tls.csr', '-subj', '/CN=127.0.0.1');
    writeFileSync(file('san.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
    openssl('x509', '-req', '-in', 'tls.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '1', '-extfile', 'san.ext', '-out', 'tls.crt');

    // An operator, its system account (JetStream needs one), the services' account (with
    // JetStream), and the account's user for the service.
    const [operator, system, account] = [nkeys.createOperator() as KeyPair, nkeys.createAccount() as KeyPair, nkeys.createAccount() as KeyPair];
    const limits = { subs: -1, data: -1, payload: -1, imports: -1, exports: -1, wildcards: true, conn: -1, leaf: -1 };
    const systemJwt = natsJwt(operator, system.getPublicKey(), 'SYS', { type: 'account', limits });
    const accountJwt = natsJwt(operator, account.getPublicKey(), 'CREWSWAP', { type: 'account', limits: { ...limits, mem_storage: -1, disk_storage: -1, streams: -1, consumer: -1 } });
    writeFileSync(file('links.creds'), credsFile(account, 'links', prefix), { mode: 0o600 });
    writeFileSync(file('stranger.creds'), credsFile(nkeys.createAccount() as KeyPair, 'links', prefix), { mode: 0o600 });

    const port = await freePort();
    url = `tls://127.0.0.1:${port}`;
    writeFileSync(
      file('nats.conf'),
      [
        `listen: "127.0.0.1:${port}"`,
        `tls: ${JSON.stringify({ cert_file: file('tls.crt'), key_file: file('tls.key') })}`,
        `jetstream: ${JSON.stringify({ store_dir: file('jetstream') })}`,
        `operator: ${natsJwt(operator, operator.getPublicKey(), 'crewswap-test', { type: 'operator' })}`,
        `system_account: ${system.getPublicKey()}`,
        'resolver: MEMORY',
        `resolver_preload: { ${system.getPublicKey()}: ${systemJwt}, ${account.getPublicKey()}: ${accountJwt} }`,
      ].join('\n'),
    );
    const child = spawn('nats-server', ['-c', file('nats.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = '';
    child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    stop = async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    };
    for (let tries = 0; ; tries += 1) {
      if (child.exitCode !== null || tries > 100) throw new Error(`nats-server did not start: ${errors}`);
      const open = await new Promise<boolean>((resolve) => {
        const socket = connectTcp(port, '127.0.0.1', () => resolve(!!socket.destroy())).once('error', () => resolve(false));
      });
      if (open) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
  afterAll(async () => {
    for (const bus of buses) await bus.close().catch(() => undefined);
    await stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('connects with NATS_CA_FILE and NATS_CREDS, as the creds user with its permissions', async () => {
    const bus = await connectWith({ NATS_CA_FILE: file('ca.crt'), NATS_CREDS: file('links.creds') });
    expect(bus.nc.info?.tls_required).toBe(true);
    // JetStream through the account: streams made, and links' permissions from its JWT apply.
    await ensureStreams(bus);
    expect((await bus.jsm.streams.info(bus.stream('AUTH'))).config.name).toBe(`${prefix}_AUTH`);
    await expect(bus.jsm.streams.names().next()).rejects.toThrow(/Permissions Violation/i);
    await expect(bus.js.publish(bus.subject(SUBJECTS.pilotDeleted), '{}', { timeout: 2000 })).rejects.toThrow(/Permissions Violation/i);
  });

  it('refuses the connection without NATS_CA_FILE: the server certificate is not trusted', async () => {
    await expect(connectWith({ NATS_CREDS: file('links.creds') })).rejects.toThrow(/unable to verify the first certificate/);
  });

  it('refuses a service without NATS_CREDS, or with creds of an account the operator never signed', async () => {
    await expect(connectWith({ NATS_CA_FILE: file('ca.crt') })).rejects.toThrow(/Authorization Violation/i);
    await expect(connectWith({ NATS_CA_FILE: file('ca.crt'), NATS_CREDS: file('stranger.creds') })).rejects.toThrow(/Authorization Violation/i);
  });
});

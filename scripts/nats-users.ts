/**
 * A nats-server of the stack's own, with one user per service and the permissions proto gives
 * it (proto/src/nats-permissions.ts, the same the chart installs), so that locally, as in
 * production, a service that publishes or listens outside its subjects is refused. nats-server
 * logs every refusal; `violations()` returns those lines, and the tests that run a stack expect none.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { connect as connectTcp } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { natsAuthorizationConfig, natsSrePermissions, NATS_SERVICES, NATS_SRE_USER, type NatsService } from '@crewswap/proto';
import { freePort } from '@crewswap/kit-testing';

/** The stack's own tools (demo seeding) connect as this user, which may do anything. */
export const STACK_NATS_USER = 'stack';

export interface NatsLogin {
  user: string;
  password: string;
}

export interface PrivateNats {
  url: string;
  /** Each service's user and password, as NATS_USER / NATS_PASSWORD. */
  logins: Record<NatsService, NatsLogin>;
  stack: NatsLogin;
  /** The operators' read-only user, as in the chart (`nats --user sre ... stream report`). */
  sre: NatsLogin;
  /** nats-server's log lines about refused publishes and subscriptions. */
  violations(): string[];
  stop(): Promise<void>;
}

/** NATS_USER and NATS_PASSWORD for a process of `service`; none for one without a NATS user (the gateway). */
export function natsLoginEnv(nats: PrivateNats | undefined, service: string): Record<string, string> {
  const login = nats?.logins[service as NatsService];
  return login ? { NATS_USER: login.user, NATS_PASSWORD: login.password } : {};
}

export async function startPrivateNats(options: { prefix: string; storeDir: string; port?: number }): Promise<PrivateNats> {
  mkdirSync(options.storeDir, { recursive: true });
  const port = options.port ?? (await freePort());
  const password = () => randomBytes(18).toString('base64url');
  const logins = Object.fromEntries((Object.keys(NATS_SERVICES) as NatsService[]).map((service) => [service, { user: service, password: password() }])) as Record<NatsService, NatsLogin>;
  const stack = { user: STACK_NATS_USER, password: password() };
  const sre = { user: NATS_SRE_USER, password: password() };
  const passwords = Object.fromEntries(Object.values(logins).map((login) => [login.user, login.password]));
  const config = [
    `listen: "127.0.0.1:${port}"`,
    `jetstream: ${JSON.stringify({ store_dir: join(options.storeDir, 'jetstream') })}`,
    natsAuthorizationConfig(passwords, options.prefix, [stack, { ...sre, permissions: natsSrePermissions() }]),
  ].join('\n');
  const configFile = join(options.storeDir, 'nats.conf');
  writeFileSync(configFile, config, { mode: 0o600 });

  const child = spawn('nats-server', ['-c', configFile], { stdio: ['ignore', 'ignore', 'pipe'] });
  const violations: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => {
    if (/Violation/.test(line)) violations.push(line);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  try {
    await waitForPort(port, exited);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `nats://127.0.0.1:${port}`, logins, stack, sre, violations: () => [...violations], stop };
}

async function waitForPort(port: number, exited: Promise<void>, timeoutMs = 10_000): Promise<void> {
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (gone) throw new Error('nats-server exited at start (is NATS 2.9+ installed? `make up` installs it)');
    const open = await new Promise<boolean>((resolve) => {
      const socket = connectTcp(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`nats-server did not listen on ${port} within ${timeoutMs / 1000} s`);
}

/**
 * Tests need a real Postgres and a real NATS with JetStream. Where DATABASE_URL / NATS_URL are
 * set, or the local defaults answer, those are used. Otherwise, when Docker is available,
 * testcontainers starts them for this run (the URLs reach every test worker through the
 * environment) and the teardown stops them.
 */
import { connect } from 'node:net';

const started: { stop(): Promise<unknown> }[] = [];

function answers(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, host);
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

export default async function globalSetup(): Promise<void> {
  const needPostgres = !process.env.DATABASE_URL && !(await answers('127.0.0.1', 5432));
  const needNats = !process.env.NATS_URL && !(await answers('127.0.0.1', 4222));
  if (!needPostgres && !needNats) return;
  const { GenericContainer, Wait } = await import('testcontainers');
  try {
    if (needPostgres) {
      const postgres = await new GenericContainer('postgres:16-alpine')
        .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust' })
        .withExposedPorts(5432)
        .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
        .start();
      started.push(postgres);
      process.env.DATABASE_URL = `postgres://postgres@${postgres.getHost()}:${postgres.getMappedPort(5432)}/postgres`;
    }
    if (needNats) {
      const nats = await new GenericContainer('nats:2.10-alpine').withCommand(['-js']).withExposedPorts(4222).start();
      started.push(nats);
      process.env.NATS_URL = `nats://${nats.getHost()}:${nats.getMappedPort(4222)}`;
    }
  } catch (error) {
    throw new Error(
      `Postgres or NATS is not running and Docker could not start them (${(error as Error).message}). ` +
        'Run `make infra`, or set DATABASE_URL and NATS_URL.',
    );
  }
  (globalThis as { __crewswapContainers?: typeof started }).__crewswapContainers = started;
}

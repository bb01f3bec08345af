// What Fastify itself costs as a proxy, for the gateway bench to print beside the gateway and the
// bare proxy: the bare proxy's forwarding (an undici pool) in one Fastify route with the
// gateway's security headers, and nothing else (no logs, metrics, traces, request ids, hooks,
// compression or limits). Not a product: the least any Fastify gateway can cost on this machine.
// Plain JavaScript so that no loader runs in its process. PORT, TRIPS_URL and EXTRA_HEADERS (JSON)
// from the environment, as bare-proxy.mjs.
import Fastify from 'fastify';
import { Pool } from 'undici';
import { forwardWhole } from './forward.mjs';

const pool = new Pool(process.env.TRIPS_URL, { connections: 64, pipelining: 1 });
const EXTRA_HEADERS = JSON.parse(process.env.EXTRA_HEADERS ?? '{}');

const app = Fastify({ logger: false });
app.get('/healthz', (_request, reply) => reply.send('ok'));
app.all('/api/*', (request, reply) => {
  forwardWhole(
    pool,
    request,
    (status, headers, body) => reply.status(status).headers(EXTRA_HEADERS).headers(headers).send(body),
    () => reply.status(503).send(),
  );
  return reply;
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });

// Stopped by the bench: exit as a process does, so a CPU profile (BENCH_CPU_PROF) is written.
process.on('SIGTERM', () => process.exit(0));

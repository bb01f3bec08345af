// The least a Node.js proxy can cost, for the gateway bench to print beside the gateway: node:http
// and an undici pool, as the gateway uses, and nothing else (no logs, metrics, security headers,
// request ids, compression, routing). Not a product: a reference for what this machine allows.
// Plain JavaScript so that no loader runs in its process. PORT and TRIPS_URL from the environment;
// EXTRA_HEADERS (JSON), headers added to every answer (the bench's "bare + security headers").
import http from 'node:http';
import { Pool } from 'undici';
import { forwardWhole } from './forward.mjs';

const pool = new Pool(process.env.TRIPS_URL, { connections: 64, pipelining: 1 });
const EXTRA_HEADERS = JSON.parse(process.env.EXTRA_HEADERS ?? '{}');

http
  .createServer((request, response) => {
    if (request.url === '/healthz') return void response.end('ok');
    forwardWhole(
      pool,
      request,
      (status, headers, body) => response.writeHead(status, { ...EXTRA_HEADERS, ...headers }).end(body),
      () => response.writeHead(503).end(),
    );
  })
  .listen(Number(process.env.PORT), '127.0.0.1');

// Stopped by the bench: exit as a process does, so a CPU profile (BENCH_CPU_PROF) is written.
process.on('SIGTERM', () => process.exit(0));

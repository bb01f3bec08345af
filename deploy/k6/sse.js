// Holds server-sent event connections open, as pilots with the app open do: checks the stream is
// accepted and stays open for HOLD seconds through the ingress (no buffering, no early close).
//   k6 run -e BASE_URL=https://crewswap.example.com -e VUS=500 -e HOLD=120 deploy/k6/sse.js
import http from 'k6/http';
import { check } from 'k6';
import { BASE, ensureSession, loginDelay } from './lib.js';

const HOLD = Number(__ENV.HOLD || 60);
const VUS = Number(__ENV.VUS || 100);

export const options = {
  // Every VU logs in once, in turn (lib.js loginDelay), so the last one starts its stream that much later.
  scenarios: { streams: { executor: 'per-vu-iterations', vus: VUS, iterations: 1, maxDuration: `${Math.ceil(loginDelay(VUS)) + HOLD + 60}s` } },
  thresholds: {
    checks: ['rate>0.99'],
    // The request lasts as long as the stream is held: it must not end early.
    'http_req_duration{name:sse}': [`p(5)>${(HOLD - 5) * 1000}`],
  },
};

export default function () {
  ensureSession();
  // k6 has no EventSource; a GET with a timeout reads the stream until the timeout ends it. A
  // request our timeout ends reports no status (k6 drops it with the error), so what tells a held
  // stream from one that never got an answer is time spent receiving: it is counted from the first
  // byte of the response, and stays 0 when no headers ever came (a stuck or buffering proxy).
  const res = http.get(`${BASE}/api/sse/events`, { headers: { Accept: 'text/event-stream' }, timeout: `${HOLD}s`, tags: { name: 'sse' } });
  check(res, {
    'stream held open': (r) => r.error_code === 1050 /* our timeout ended it */ && r.timings.receiving > 0,
  });
}

// The main pilot journey: list my trips, find swaps for one, offer it and withdraw it again (so
// every loop writes twice, whatever the trip was before). Each VU logs in once and keeps its
// session (lib.js ensureSession); a session that ended (401) logs in again. Run:
//   k6 run -e BASE_URL=https://crewswap.example.com -e PASSWORD=... deploy/k6/journeys.js
import http from 'k6/http';
import { check, sleep } from 'k6';
import { BASE, HEADERS, ensureSession, login } from './lib.js';

export const options = {
  // Keep each VU's session cookie from one iteration to the next (k6 empties the jar otherwise).
  noCookiesReset: true,
  scenarios: {
    pilots: { executor: 'ramping-vus', startVUs: 0, stages: [{ duration: '1m', target: Number(__ENV.VUS || 50) }, { duration: '3m', target: Number(__ENV.VUS || 50) }, { duration: '30s', target: 0 }] },
  },
  thresholds: {
    http_req_failed: ['rate<0.01'],
    'http_req_duration{name:login}': ['p(95)<800'],
    'http_req_duration{name:list trips}': ['p(95)<300'],
    'http_req_duration{name:find swaps}': ['p(95)<300'],
    'http_req_duration{name:offer}': ['p(95)<500'],
    'http_req_duration{name:withdraw}': ['p(95)<500'],
    checks: ['rate>0.99'],
  },
};

export function setup() {
  const res = http.get(`${BASE}/healthz`);
  check(res, { 'gateway up': (r) => r.status === 200 });
}

export default function () {
  ensureSession();
  let trips = http.get(`${BASE}/api/trips`, { tags: { name: 'list trips' } });
  if (trips.status === 401) {
    login(__VU);
    trips = http.get(`${BASE}/api/trips`, { tags: { name: 'list trips' } });
  }
  check(trips, { 'trips 200': (r) => r.status === 200 });
  const list = trips.status === 200 ? trips.json() : [];
  // A trip that flies (proto/src/trip.ts: standby duties have isStandby and no flights to swap).
  const trip = Array.isArray(list) ? list.find((t) => !t.isStandby) : undefined;
  if (trip) {
    const matches = http.get(`${BASE}/api/trips/${trip.id}/matches`, { tags: { name: 'find swaps' } });
    check(matches, { 'matches 200': (r) => r.status === 200 });
    // Offer it, then withdraw it: an offer of a trip already offered changes nothing, so without
    // the withdrawal only the first loop would write. skipNotification: no pilot is alerted.
    const offer = http.patch(`${BASE}/api/trips/${trip.id}/swappable`, JSON.stringify({ isSwappable: true, swapDescription: 'k6 load test', skipNotification: true }), { headers: HEADERS, tags: { name: 'offer' } });
    check(offer, { 'offer 2xx': (r) => r.status >= 200 && r.status < 300 });
    const withdraw = http.patch(`${BASE}/api/trips/${trip.id}/swappable`, JSON.stringify({ isSwappable: false, skipNotification: true }), { headers: HEADERS, tags: { name: 'withdraw' } });
    check(withdraw, { 'withdraw 2xx': (r) => r.status >= 200 && r.status < 300 });
  }
  sleep(1 + Math.random() * 2);
}

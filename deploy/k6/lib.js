// Shared by the k6 scripts: the base URL, the Origin every mutating request needs, and logging in.
// PILOTS is a comma-separated list of pilot emails (a staging copy's test pilots); with
// TEST_LOGIN=true they log in through the testing mode (`testing_button_enabled` on, PASSWORD the
// testing password), otherwise PASSWORD is their own password. Never point this at production pilots.
import http from 'k6/http';
import { check, fail, sleep } from 'k6';

export const BASE = __ENV.BASE_URL || 'http://localhost:8080';
export const ORIGIN = __ENV.ORIGIN || BASE;
const HEADERS = { 'Content-Type': 'application/json', Origin: ORIGIN };

export function pilotEmail(vu) {
  if (!__ENV.PILOTS) fail('set PILOTS to a comma-separated list of test pilots\' emails');
  const list = __ENV.PILOTS.split(',');
  return list[vu % list.length];
}

export function login(vu) {
  const email = pilotEmail(vu);
  const password = __ENV.PASSWORD || 'letmein';
  const path = __ENV.TEST_LOGIN === 'true' ? '/api/auth/test-login' : '/api/auth/login';
  const res = http.post(`${BASE}${path}`, JSON.stringify({ email, password }), { headers: HEADERS, tags: { name: 'login' } });
  if (!check(res, { 'login 200': (r) => r.status === 200 })) fail(`login as ${email} answered ${res.status}: ${res.body}`);
  return res;
}

// The gateway allows AUTH_RATE_LIMIT_PER_MINUTE (300) auth requests a minute from one address, and
// a load machine is one address: log in once per virtual user, spread below that rate, and keep
// the session (scripts set noCookiesReset, or k6 empties each VU's cookie jar after every
// iteration), so the run measures the system, not the limiter.
export const LOGINS_PER_MINUTE = Number(__ENV.LOGINS_PER_MINUTE || 240);

/** Seconds virtual user `vu` waits before its one login, so logins arrive at LOGINS_PER_MINUTE. */
export function loginDelay(vu) {
  return ((vu - 1) * 60) / LOGINS_PER_MINUTE;
}

/** Logs this VU in on its first iteration only (after its turn in the spread); later iterations reuse the session cookie. */
export function ensureSession() {
  if (__ITER > 0) return;
  sleep(loginDelay(__VU));
  login(__VU);
}

export { HEADERS };

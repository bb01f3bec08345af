/**
 * The k6 scripts run here on a stand-in for k6's runtime (no k6 on this machine): its per-VU cookie
 * jar, emptied after every iteration unless the script sets noCookiesReset, and a gateway that
 * answers 401 without a session cookie. Issue 54: every iteration logged in, and 500 streams logged
 * in at once, tripping the gateway's 300 logins a minute from one address.
 */
import { read } from './repo';

const GATEWAY_AUTH_LIMIT_PER_MINUTE = 300;

interface Login { vu: number; at: number }
interface Run { logins: Login[]; unauthorised: number; requests: number }

/** Runs a k6 script's default function for `vus` VUs, `iterations` each, VUs side by side in virtual time. */
function runK6(script: string, vus: number, iterations: number, env: Record<string, string> = {}): Run {
  const strip = (source: string) =>
    source
      .replace(/^import .*$/gm, '')
      .replace(/^export \{[^}]*\};?$/gm, '')
      .replace(/^export default function/m, 'function main')
      .replace(/^export /gm, '');
  const run: Run = { logins: [], unauthorised: 0, requests: 0 };
  const state = { vu: 0, iter: 0, clock: 0, cookie: '' };
  const answer = (status: number, body: unknown = {}) => ({ status, body: JSON.stringify(body), json: () => body, error_code: 0, timings: { receiving: 0 } });
  const http = {
    cookieJar: () => ({ clear: () => { state.cookie = ''; } }),
    post(url: string) {
      run.requests += 1;
      if (!/\/api\/auth\/(test-)?login$/.test(url)) return answer(404);
      run.logins.push({ vu: state.vu, at: state.clock });
      state.cookie = `session-of-${state.vu}`;
      return answer(200);
    },
    get(url: string) {
      run.requests += 1;
      if (url.endsWith('/healthz')) return answer(200);
      if (!state.cookie) { run.unauthorised += 1; return answer(401); }
      if (url.endsWith('/api/sse/events')) return { ...answer(0), error_code: 1050, timings: { receiving: 1 } };
      if (url.endsWith('/api/trips')) return answer(200, [{ id: 'trip-1', isStandby: false }]);
      return answer(200, []);
    },
    patch() {
      run.requests += 1;
      if (!state.cookie) { run.unauthorised += 1; return answer(401); }
      return answer(200);
    },
  };
  const k6 = {
    check: (value: unknown, checks: Record<string, (value: unknown) => boolean>) => Object.values(checks).every((predicate) => predicate(value)),
    fail: (message: string) => { throw new Error(message); },
    sleep: (seconds: number) => { state.clock += seconds; },
  };
  const scope = {
    http, ...k6,
    __ENV: { PILOTS: 'a@fly.virgin.com,b@fly.virgin.com', ...env },
    get __VU() { return state.vu; },
    get __ITER() { return state.iter; },
  };
  const body = `with (scope) { ${strip(read('deploy/k6/lib.js'))}\n${strip(read('deploy/k6', script))}\n return { main, options }; }`;
  const { main, options } = new Function('scope', body)(scope) as { main: () => void; options: { noCookiesReset?: boolean } };
  for (let vu = 1; vu <= vus; vu += 1) {
    Object.assign(state, { vu, clock: 0, cookie: '' });
    for (let iter = 0; iter < iterations; iter += 1) {
      state.iter = iter;
      main();
      if (!options.noCookiesReset) state.cookie = '';
    }
  }
  return run;
}

/** The most logins any one minute of the run sees. */
const busiestMinute = (logins: Login[]) => Math.max(...logins.map(({ at }) => logins.filter((other) => other.at >= at && other.at < at + 60).length));

describe('k6 logs in once per virtual user and reuses the session', () => {
  test('the journey logs each VU in once, and every later iteration is signed in', () => {
    const run = runK6('journeys.js', 50, 5);
    expect(run.logins.map(({ vu }) => vu)).toEqual(Array.from({ length: 50 }, (_, index) => index + 1));
    expect(run.unauthorised).toBe(0);
    expect(run.requests).toBeGreaterThan(50 * 5 * 3);
  });

  test('500 SSE streams log in once each, spread below the gateway\'s login limit from one address', () => {
    const run = runK6('sse.js', 500, 1, { VUS: '500', HOLD: '120' });
    expect(run.logins).toHaveLength(500);
    expect(run.unauthorised).toBe(0);
    expect(busiestMinute(run.logins)).toBeLessThan(GATEWAY_AUTH_LIMIT_PER_MINUTE);
  });

  test('the gateway\'s limit the scripts stay under is the one it applies', () => {
    expect(read('services/gateway/src/config.ts')).toMatch(new RegExp(`AUTH_RATE_LIMIT_PER_MINUTE: z\\.coerce\\.number\\(\\)\\.int\\(\\)\\.min\\(1\\)\\.default\\(${GATEWAY_AUTH_LIMIT_PER_MINUTE}\\)`));
  });
});

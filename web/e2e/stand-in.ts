/**
 * A small in-memory stand-in for the gateway, for looking at the app and trying the e2e tests
 * before the real stack runs. It is not the product's server: the rules here are only the ones the
 * screens need (login flags, verification by emailed code, one session per pilot, trip overlap).
 * Serves web/dist with the SPA fallback, writes mails as .eml files to MAIL_OUTBOX_DIR.
 *   PORT=18080 MAIL_OUTBOX_DIR=/tmp/outbox node --import tsx web/e2e/stand-in.ts
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { extname, join } from 'node:path';

const PORT = Number(process.env.PORT ?? 18080);
const OUTBOX = process.env.MAIL_OUTBOX_DIR ?? '/tmp/crewswap-outbox';
const DOMAIN = 'fly.virgin.com';
const DIST = new URL('../dist/', import.meta.url).pathname;
mkdirSync(OUTBOX, { recursive: true });

type Json = Record<string, unknown>;
interface PilotRecord extends Json {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
  rank: string;
  fleet: string;
  employeeId: string;
  password: string;
  code: string;
  emailVerified: boolean;
  usualReq: boolean;
  ltc: boolean;
  apic: boolean;
  failures: number;
}
interface TripRecord extends Json {
  id: string;
  pilotId: string;
  flightNoStart: string;
  flightNoEnd: string;
  startDate: string;
  endDate: string;
  isSwappable: boolean;
  requested: boolean;
}

const pilots = new Map<string, PilotRecord>();
const trips = new Map<string, TripRecord>();
const sessions = new Map<string, string>(); // session id -> pilot id
const iata = new Set(['LHR', 'MAN', 'JFK', 'LAX', 'SFO', 'BOS', 'MIA', 'ATL', 'SEA', 'IAD', 'EWR', 'LAS', 'MCO', 'JNB', 'HKG', 'DEL', 'BGI']);
const today = () => new Date().toISOString().slice(0, 10);

function publicPilot(p: PilotRecord): Json {
  const { password: _p, code: _c, failures: _f, ...rest } = p;
  return rest;
}

function mail(to: string, subject: string, text: string) {
  const body = `To: ${to}\r\nFrom: noreply@crewswap.local\r\nSubject: ${subject}\r\nDate: ${new Date().toUTCString()}\r\n\r\n${text}\r\n`;
  writeFileSync(join(OUTBOX, `${Date.now()}-${randomUUID()}.eml`), body);
}

function addPilot(fields: Partial<PilotRecord> & { email: string; password: string }): PilotRecord {
  const pilot: PilotRecord = {
    id: randomUUID(),
    employeeId: '000000',
    firstName: 'Test',
    lastName: 'Pilot',
    phone: '+447700900000',
    rank: 'FO',
    fleet: 'A350',
    base: 'LHR',
    apic: true,
    ltc: false,
    usualReq: true,
    allVisible: true,
    testData: false,
    emailVerified: true,
    searchDayRange: null,
    rankLastChanged: null,
    fleetLastChanged: null,
    ltcLastChanged: null,
    usualReqOff: null,
    createdAt: new Date().toISOString(),
    code: String(Math.floor(100000 + Math.random() * 900000)),
    failures: 0,
    ...fields,
  };
  pilots.set(pilot.id, pilot);
  return pilot;
}

async function readJson(req: IncomingMessage): Promise<Json> {
  let raw = '';
  for await (const chunk of req) raw += chunk;
  return raw ? (JSON.parse(raw) as Json) : {};
}

function send(res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(body === undefined ? '' : JSON.stringify(body));
}

function sessionPilot(req: IncomingMessage): PilotRecord | undefined {
  const sid = /crewswap_session=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
  const id = sid ? sessions.get(sid) : undefined;
  return id ? pilots.get(id) : undefined;
}

function startSession(res: ServerResponse, pilot: PilotRecord): Record<string, string> {
  for (const [sid, id] of sessions) if (id === pilot.id) sessions.delete(sid); // one session per pilot
  const sid = randomUUID();
  sessions.set(sid, pilot.id);
  return { 'Set-Cookie': `crewswap_session=${sid}; Path=/; HttpOnly; SameSite=Lax` };
}

async function api(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams) {
  const method = req.method ?? 'GET';
  const route = `${method} ${path}`;
  if (route === 'GET /api/auth/config') return send(res, 200, { companyEmailDomain: DOMAIN, productName: 'CrewSwap' });
  if (path.startsWith('/api/settings/')) {
    const key = path.split('/').pop()!;
    const values: Json = { swap_search_days: '4', testing_button_enabled: 'true', upload_email: 'roster@crewswap.local' };
    return key in values ? send(res, 200, { value: values[key] }) : send(res, 404, { error: 'Not found' });
  }
  if (route === 'POST /api/auth/login') {
    const body = await readJson(req);
    const pilot = [...pilots.values()].find((p) => p.email === body.email);
    if (!pilot || pilot.password !== body.password) {
      if (!pilot) return send(res, 401, { error: 'Invalid email or password.' });
      pilot.failures += 1;
      return send(res, 401, { error: 'Invalid email or password.', remainingAttempts: Math.max(0, 5 - pilot.failures) });
    }
    if (!pilot.emailVerified) return send(res, 403, { error: 'Please verify your email.', emailVerificationRequired: true });
    pilot.failures = 0;
    return send(res, 200, { pilot: publicPilot(pilot), forcePasswordChange: false }, startSession(res, pilot));
  }
  if (route === 'POST /api/auth/register') {
    const body = await readJson(req);
    const email = `${String(body.emailPrefix)}@${DOMAIN}`;
    if ([...pilots.values()].some((p) => p.email === email || p.employeeId === body.employeeId)) {
      return send(res, 409, { error: 'An account with this email or employee ID already exists.', title: 'Registration Failed' });
    }
    const pilot = addPilot({ ...(body as Partial<PilotRecord>), email, password: String(body.password), emailVerified: false });
    delete (pilot as Json).emailPrefix;
    delete (pilot as Json).confirmPassword;
    mail(email, 'Your CrewSwap verification code', `Your verification code is ${pilot.code}`);
    return send(res, 201, { pilot: publicPilot(pilot), emailVerificationRequired: true });
  }
  if (route === 'POST /api/auth/verify-email') {
    const body = await readJson(req);
    const pilot = [...pilots.values()].find((p) => p.email === body.email);
    if (!pilot || pilot.code !== body.code) return send(res, 400, { error: 'Invalid verification code' });
    pilot.emailVerified = true;
    return send(res, 200, { message: 'Email verified' });
  }
  if (route === 'POST /api/auth/resend-verification' || route === 'POST /api/auth/forgot-password') return send(res, 200, { message: 'OK' });
  if (route === 'POST /api/auth/test-login') {
    const body = await readJson(req);
    if (body.password !== 'testing') return send(res, 403, { error: 'Incorrect password.', title: 'Access Denied' });
    const pilot = [...pilots.values()].find((p) => p.email === body.email);
    if (!pilot) return send(res, 404, { error: 'No such pilot' });
    return send(res, 200, { pilot: publicPilot(pilot), forcePasswordChange: false }, startSession(res, pilot));
  }
  if (route === 'GET /api/pilots/all') return send(res, 200, [...pilots.values()].map(publicPilot));
  if (path.startsWith('/api/check-deleted-pilot/')) return send(res, 200, { exists: false });
  if (route === 'GET /api/iata-codes') return send(res, 200, [...iata].map((iataCode) => ({ iataCode })));

  const me = sessionPilot(req);
  if (!me) return send(res, 401, { error: 'Session expired' });
  if (route === 'GET /api/pilot/current') return send(res, 200, publicPilot(me));
  if (route === 'POST /api/auth/logout') {
    for (const [sid, id] of sessions) if (id === me.id) sessions.delete(sid);
    return send(res, 200, { message: 'Logged out' }, { 'Set-Cookie': 'crewswap_session=; Path=/; Max-Age=0' });
  }
  if (route === 'POST /api/iata-codes') {
    const body = await readJson(req);
    iata.add(String(body.iataCode).toUpperCase());
    return send(res, 201, { iataCode: body.iataCode });
  }
  if (route === 'GET /api/trips') return send(res, 200, [...trips.values()].filter((t) => t.pilotId === me.id));
  if (route === 'POST /api/trips') {
    const body = await readJson(req);
    const start = String(body.startDate);
    const end = String(body.endDate);
    const clash = [...trips.values()].find((t) => t.pilotId === me.id && t.startDate <= end && start <= t.endDate);
    if (clash) {
      return send(res, 409, {
        error: `Trip dates conflict with existing trip: ${clash.flightNoStart}/${clash.flightNoEnd} (${clash.startDate} to ${clash.endDate})`,
      });
    }
    const trip = {
      companions: null, swapDescription: null, icsDescription: null, searchStartDate: null, searchEndDate: null,
      training: false, requested: false, isSwappable: false, aircraft: null,
      ...(body as Json), id: randomUUID(), pilotId: me.id, isStandby: body.flightNoStart === 'VS000',
      createdAt: new Date().toISOString(), updatedAt: new Date().toISOString(),
    } as unknown as TripRecord;
    trips.set(trip.id, trip);
    return send(res, 201, { ...trip, warnings: [] });
  }
  const tripMatch = /^\/api\/trips\/([^/]+)(?:\/(.+))?$/.exec(path);
  if (tripMatch) {
    const trip = trips.get(tripMatch[1]!);
    if (!trip || trip.pilotId !== me.id) return send(res, 404, { error: 'Trip not found' });
    const sub = tripMatch[2];
    if (method === 'DELETE' && !sub) {
      trips.delete(trip.id);
      return send(res, 204);
    }
    if (method === 'PATCH') {
      const body = await readJson(req);
      Object.assign(trip, body);
      delete trip.skipNotification;
      if (sub === 'swappable' && body.isSwappable) trip.requested = false;
      if (sub === 'requested' && body.requested) Object.assign(trip, { isSwappable: false, searchStartDate: null, searchEndDate: null });
      return send(res, 200, trip);
    }
    if (method === 'POST' && sub === 'send-notifications') return send(res, 200, { message: 'Sent', alerted: 1 });
    if (method === 'GET' && sub === 'matches') {
      const from = query.get('startDate') ?? '0000';
      const to = query.get('endDate') ?? '9999';
      const found = [...trips.values()].filter(
        (t) => t.pilotId !== me.id && t.isSwappable && t.startDate >= from && t.startDate <= to && pilots.get(t.pilotId)?.rank === me.rank,
      );
      return send(res, 200, found.map((t) => ({ trip: t, pilot: publicPilot(pilots.get(t.pilotId)!), sameDates: t.startDate === trip.startDate && t.endDate === trip.endDate })));
    }
  }
  const pilotMatch = /^\/api\/pilots\/([^/]+)(?:\/(.+))?$/.exec(path);
  if (pilotMatch && pilotMatch[1] === me.id) {
    const sub = pilotMatch[2];
    if (method === 'PATCH' && !sub) {
      const body = await readJson(req);
      if (typeof body.phone === 'string' && body.phone.startsWith('+0')) {
        return send(res, 400, { error: 'Phone number cannot start with +0. Please enter your number with the correct country code (e.g., +44 for UK, +1 for US).', title: 'Invalid Phone Number' });
      }
      Object.assign(me, body);
      return send(res, 200, publicPilot(me));
    }
    if (method === 'PATCH' && sub === 'password') return send(res, 200, { message: 'Password changed' });
    if (method === 'GET' && sub === 'check-master-roster-cooldown') return send(res, 200, { canEnable: false, daysRemaining: 12 });
    if (method === 'DELETE' && !sub) {
      pilots.delete(me.id);
      return send(res, 200, { message: 'Deleted' });
    }
  }
  return send(res, 404, { error: `No such path: ${method} ${path}` });
}

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.html': 'text/html', '.svg': 'image/svg+xml', '.json': 'application/json' };

function serveStatic(res: ServerResponse, path: string) {
  const file = join(DIST, path);
  const target = file.startsWith(DIST) && existsSync(file) && statSync(file).isFile() ? file : join(DIST, 'index.html');
  res.writeHead(200, { 'Content-Type': TYPES[extname(target)] ?? 'application/octet-stream' });
  res.end(readFileSync(target));
}

// A couple of pilots so a second pilot can offer trips and the Testing list has names in it.
addPilot({ email: `olivia.offer@${DOMAIN}`, password: 'password1', firstName: 'Olivia', lastName: 'Offer', employeeId: '200001', testData: true });
addPilot({ email: `carl.captain@${DOMAIN}`, password: 'password1', firstName: 'Carl', lastName: 'Captain', rank: 'CP', ltc: true, employeeId: '200002', testData: true, fleet: 'SFF' });
void today;

createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (url.pathname.startsWith('/api/')) {
    api(req, res, url.pathname, url.searchParams).catch((error: unknown) => send(res, 500, { error: String(error) }));
  } else serveStatic(res, url.pathname);
}).listen(PORT, '127.0.0.1', () => console.log(`stand-in on http://127.0.0.1:${PORT}, mail to ${OUTBOX}`));

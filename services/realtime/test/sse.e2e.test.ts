/**
 * Real-time updates with the real processes behind the real gateway (scripts/stack.ts): a roster
 * import reaches the pilot's open stream as 'trips added', logging in elsewhere ends the old
 * stream with logged_in_elsewhere, and an emergency shutdown ends streams with auth_failed
 * (category admin_shutdown).
 */
import { randomInt } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '@crewswap/kit';
import { createTestDatabase, eventually, openStream, uniqueName } from '@crewswap/kit-testing';
import { addDays } from '@crewswap/proto';
import { startStack, type Stack } from '../../../scripts/stack';

jest.setTimeout(300_000);

const ADMIN = { email: 'sse.admin@crewswap.local', password: 'sse-admin-pass-1' };

/** A one-trip roster (out on `date`, back the day after), as crew systems export it. */
function rosterCalendar(date: string): string {
  const day = date.replace(/-/g, '');
  const next = addDays(date, 1).replace(/-/g, '');
  const event = (uid: string, start: string, end: string, summary: string) =>
    ['BEGIN:VEVENT', `UID:${uid}@sse.test`, `DTSTAMP:${day}T060000Z`, `DTSTART:${start}`, `DTEND:${end}`, `SUMMARY:${summary}`, 'END:VEVENT'];
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//CrewSwap SSE test//EN',
    ...event('out', `${day}T110000Z`, `${day}T190000Z`, 'VS25 LHR 1100 JFK 1400 351 [FO]'),
    ...event('back', `${next}T220000Z`, `${next}T230000Z`, 'VS26 JFK 1800 LHR 0600 351 [FO]'),
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

describe('real-time updates through the gateway, with the real services', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let stack: Stack;
  let mailDir: string;
  const basePort = 28000 + Math.floor(Math.random() * 300) * 10;
  const origin = `http://localhost:${basePort}`;
  const url = (path: string) => `http://127.0.0.1:${basePort}${path}`;

  async function call(method: string, path: string, body?: unknown, cookie = ''): Promise<{ status: number; body: Record<string, unknown>; cookie: string }> {
    const form = body instanceof FormData;
    const response = await fetch(url(path), {
      method,
      headers: { origin, ...(body === undefined || form ? {} : { 'content-type': 'application/json' }), ...(cookie ? { cookie } : {}) },
      body: body === undefined ? undefined : form ? body : JSON.stringify(body),
    });
    const set = response.headers.getSetCookie().map((line) => line.split(';')[0]!).find((pair) => /=./.test(pair));
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, cookie: set ?? cookie };
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    mailDir = mkdtempSync(join(tmpdir(), 'crewswap-sse-mail-'));
    stack = await startStack({
      databaseUrl: database.url,
      natsUrl: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
      natsPrefix: uniqueName('sse'),
      gatewayPort: basePort,
      basePort,
      mailDir,
      seedDemo: false,
      logs: process.env.E2E_LOGS ? 'prefix' : 'silent',
      env: { LOG_LEVEL: 'warn', ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password },
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await database?.drop();
  });

  async function registeredPilot() {
    const prefix = `sse.${randomInt(100_000, 999_999)}`;
    const domain = (await call('GET', '/api/auth/config')).body.companyEmailDomain as string;
    const email = `${prefix}@${domain}`;
    const registration = { firstName: 'Sam', lastName: 'Stream', employeeId: String(randomInt(100_000, 999_999)), phone: '+447700900003', emailPrefix: prefix, rank: 'FO', fleet: 'A350', base: 'LHR', apic: true, ltc: false, usualReq: true, password: 'secret1', confirmPassword: 'secret1' };
    expect((await call('POST', '/api/auth/register', registration)).status).toBe(201);
    const code = await eventually(() => {
      const file = readdirSync(mailDir).find((name) => name.endsWith('.eml') && name.includes(prefix));
      return file ? /verification code is (\w+)/.exec(readFileSync(join(mailDir, file), 'utf8'))?.[1] : undefined;
    }, 30_000);
    expect((await call('POST', '/api/auth/verify-email', { email, code })).status).toBe(200);
    return { email, login: async () => (await call('POST', '/api/auth/login', { email, password: 'secret1' })).cookie };
  }

  it('answers 401 JSON to a stream without a session', async () => {
    const stream = await openStream(url('/api/sse/events'));
    expect(stream.status).toBe(401);
    expect(stream.body).toEqual({ error: 'Session expired' });
  });

  it("delivers 'trips added' to the open stream after a roster import, and ends the stream with logged_in_elsewhere when the pilot logs in elsewhere", async () => {
    const pilot = await registeredPilot();
    const phone = await pilot.login();
    const stream = await openStream(url('/api/sse/events'), phone);
    expect(stream.status).toBe(200);
    await stream.next('connected');

    const form = new FormData();
    form.append('roster', new Blob([rosterCalendar(addDays(systemClock.today(), 20))], { type: 'text/calendar' }), 'roster.ics');
    const upload = await call('POST', '/api/roster/upload', form, phone);
    expect(upload.status).toBe(200);
    const added = await stream.next('trips-added');
    expect(added).toMatchObject({ type: 'trips-added', message: '1 trips added', source: 'manual_upload' });

    const laptop = await pilot.login();
    expect(laptop).not.toBe(phone);
    await stream.ended;
    expect(stream.messages.at(-1)).toEqual({ type: 'logged_in_elsewhere', message: 'You have logged in on another device.' });
  });

  it('ends open streams with auth_failed, category admin_shutdown, on an emergency shutdown', async () => {
    const pilot = await registeredPilot();
    const cookie = await pilot.login();
    const stream = await openStream(url('/api/sse/events'), cookie);
    await stream.next('connected');

    const admin = (await call('POST', '/api/admin/login', ADMIN)).cookie;
    try {
      expect((await call('POST', '/api/admin/emergency-shutdown', { reason: 'sse test' }, admin)).status).toBe(200);
      await stream.ended;
      expect(stream.messages.at(-1)).toMatchObject({ type: 'auth_failed', category: 'admin_shutdown', message: 'admin_shutdown' });
    } finally {
      expect((await call('POST', '/api/admin/resume-operations', undefined, admin)).status).toBe(200);
    }
  });
});

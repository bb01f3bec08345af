/**
 * The real processes behind the real gateway: a pilot registers, takes the code from the mail
 * outbox, verifies, logs in, reads the current pilot, logs out, and is refused afterwards.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, eventually, uniqueName } from '@crewswap/kit-testing';
import { startStack, type Stack } from '../../../scripts/stack';

jest.setTimeout(120_000);

describe('the system end to end through the gateway', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let stack: Stack;
  let mailDir: string;
  let cookie = '';
  const basePort = 20000 + Math.floor(Math.random() * 400) * 10;
  const url = (path: string) => `http://127.0.0.1:${basePort}${path}`;

  async function call(method: string, path: string, body?: unknown) {
    const response = await fetch(url(path), {
      method,
      headers: {
        origin: `http://localhost:${basePort}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(cookie ? { cookie } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const setCookie = response.headers.getSetCookie().find((c) => c.startsWith('crewswap_session='));
    if (setCookie) cookie = setCookie.split(';')[0]!;
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    mailDir = mkdtempSync(join(tmpdir(), 'crewswap-mail-'));
    stack = await startStack({
      databaseUrl: database.url,
      natsUrl: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
      natsPrefix: uniqueName('e2e'),
      gatewayPort: basePort,
      basePort,
      mailDir,
      seedDemo: false,
      logs: process.env.E2E_LOGS ? 'prefix' : 'silent',
      env: { LOG_LEVEL: 'warn' },
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await database?.drop();
  });

  it('registers, verifies with the mailed code, logs in, reads the current pilot, logs out and is refused', async () => {
    const registered = await call('POST', '/api/auth/register', {
      firstName: 'amy',
      lastName: 'stone-hale',
      employeeId: '246810',
      phone: '+44 7700 900123',
      emailPrefix: 'amy.stone',
      rank: 'FO',
      fleet: 'A350',
      base: 'LHR',
      apic: true,
      ltc: false,
      usualReq: true,
      password: 'secret1',
      confirmPassword: 'secret1',
    });
    expect(registered.status).toBe(201);
    expect(registered.body.emailVerificationRequired).toBe(true);

    const unverified = await call('POST', '/api/auth/login', { email: 'amy.stone@fly.virgin.com', password: 'secret1' });
    expect(unverified.body.emailVerificationRequired).toBe(true);
    expect(cookie).toBe('');

    const mail = await eventually(() => {
      const file = readdirSync(mailDir).find((name) => name.endsWith('.eml') && name.includes('amy.stone'));
      return file ? readFileSync(join(mailDir, file), 'utf8') : undefined;
    }, 15_000);
    const code = /\b([A-Z0-9]{6,20})\b/.exec(mail.split(/\r?\n\r?\n/).slice(1).join('\n'))?.[1];
    expect(code).toBeDefined();

    expect((await call('POST', '/api/auth/verify-email', { email: 'amy.stone@fly.virgin.com', code })).status).toBe(200);
    const login = await call('POST', '/api/auth/login', { email: 'amy.stone@fly.virgin.com', password: 'secret1' });
    expect(login.status).toBe(200);
    expect(login.body.forcePasswordChange).toBe(false);
    expect(cookie).toMatch(/^crewswap_session=/);

    const current = await call('GET', '/api/pilot/current');
    expect(current.status).toBe(200);
    expect(current.body).toMatchObject({ firstName: 'Amy', lastName: 'Stone-Hale', email: 'amy.stone@fly.virgin.com', rank: 'FO' });

    expect((await call('POST', '/api/auth/logout')).status).toBe(200);
    const after = await call('GET', '/api/pilot/current');
    expect(after.status).toBe(401);
  });

  it('a 20 MB JSON body is refused by the gateway as 413 Request body too large, never as a service being down', async () => {
    for (const path of ['/api/auth/login', '/api/trips']) {
      const response = await fetch(url(path), {
        method: 'POST',
        headers: { origin: `http://localhost:${basePort}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'a'.repeat(20 * 1024 * 1024), password: 'x' }),
      });
      expect([path, response.status, await response.json()]).toEqual([path, 413, { error: 'Request body too large' }]);
    }
  });

  it('answers health, readiness and metrics on every service', async () => {
    for (let offset = 1; offset <= 5; offset += 1) {
      for (const path of ['/healthz', '/readyz', '/metrics']) {
        const response = await fetch(`http://127.0.0.1:${basePort + offset}${path}`);
        expect([path, response.status]).toEqual([path, 200]);
      }
    }
  });

  it("runs NATS with a user per service, and no service published or listened outside its permissions", () => {
    expect(stack.natsViolations()).toEqual([]);
  });
});

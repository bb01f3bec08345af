import { randomUUID } from 'node:crypto';
import { ADMIN_COOKIE, deleteStreams, fixedClock, PILOT_COOKIE, serveRpc, signAdminToken } from '@crewswap/kit';
import { createTestDatabase, testBaseConfig, TEST_KEYS } from '@crewswap/kit-testing';
import { RPC, SETTING_DEFAULTS, SUBJECTS, type Permission, type Pilot, type RegisterBody } from '@crewswap/proto';
import { z } from 'zod';
import { createApp, type AuthApp } from '../src/app';
import type { Config } from '../src/config';

export const START = '2026-11-01T12:00:00Z';
export const DOMAIN = 'fly.virgin.com';

/**
 * One auth service per test file: its own database and NATS prefix, a fixed clock, and the
 * settings answered here. Settings are the admin service's to serve: auth asks
 * `admin.rpc.settings.get` (kit createSettingsClient), so the test answers that subject with
 * kit serveRpc, exactly as admin does, from `settings` (which a test may change at any time;
 * SETTINGS_CACHE_MS is 0 so every read asks).
 */
export async function startAuth(initialSettings: Record<string, string> = {}) {
  const database = await createTestDatabase();
  const config: Config = {
    ...testBaseConfig(database.url),
    PORT: 0,
    COMPANY_EMAIL_DOMAIN: DOMAIN,
    APP_ORIGIN: 'http://localhost:8080',
    PRODUCT_NAME: 'CrewSwap',
    PASSWORD_HASH_COST: 10,
    SETTINGS_CACHE_MS: 0,
    SESSION_SWEEP_MS: 3_600_000,
  };
  const clock = fixedClock(START);
  const auth: AuthApp = await createApp(config, { clock });
  const { app, runtime } = auth;
  const settings: Record<string, string> = { ...SETTING_DEFAULTS, email_verification_enabled: 'false', ...initialSettings };
  const settingsRpc = serveRpc({ bus: runtime.bus, log: runtime.log, subject: RPC.getSettings, request: z.object({}), handle: async () => ({ ...settings }) });

  let nextEmployeeId = 100_000 + Math.floor(Math.random() * 800_000);
  const registration = (overrides: Partial<RegisterBody> = {}): RegisterBody => {
    const employeeId = String(nextEmployeeId++);
    return {
      firstName: 'amy',
      lastName: 'stone',
      employeeId,
      phone: '+44 7700 900000',
      emailPrefix: `pilot${employeeId}`,
      rank: 'CP',
      fleet: 'A350',
      base: 'LHR',
      apic: true,
      ltc: false,
      usualReq: true,
      password: 'secret1',
      confirmPassword: 'secret1',
      ...overrides,
    };
  };

  async function register(overrides: Partial<RegisterBody> = {}) {
    return app.inject({ method: 'POST', url: '/api/auth/register', payload: registration(overrides) });
  }

  /** A registered pilot (verification off unless the settings say otherwise). */
  async function createPilot(overrides: Partial<RegisterBody> = {}): Promise<Pilot & { password: string }> {
    const response = await register(overrides);
    if (response.statusCode !== 201) throw new Error(`register failed: ${response.body}`);
    return { ...(response.json().pilot as Pilot), password: overrides.password ?? 'secret1' };
  }

  async function login(email: string, password: string) {
    const response = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
    const cookie = response.cookies.find((c) => c.name === PILOT_COOKIE)?.value;
    return { response, cookie };
  }

  /** A pilot with an open session; `cookies` goes straight into inject. */
  async function signedIn(overrides: Partial<RegisterBody> = {}) {
    const pilot = await createPilot(overrides);
    const { cookie, response } = await login(pilot.email, pilot.password);
    if (!cookie) throw new Error(`login failed: ${response.body}`);
    return { pilot, cookie, cookies: { [PILOT_COOKIE]: cookie } };
  }

  function adminCookies(permissions: Permission[], isMasterAdmin = false) {
    const token = signAdminToken(TEST_KEYS.privateKey, { sessionId: randomUUID(), adminId: randomUUID(), isMasterAdmin, permissions });
    return { [ADMIN_COOKIE]: token };
  }

  /** Mail commands written to the outbox (notifications sends them), oldest first. */
  async function mails(to?: string): Promise<{ to: string; subject: string; text: string; html?: string }[]> {
    const rows: { envelope: { data: { to: string; subject: string; text: string; html?: string } } }[] = await runtime
      .db('outbox')
      .where({ subject: SUBJECTS.sendMail })
      .orderBy('seq');
    return rows.map((row) => row.envelope.data).filter((mail) => !to || mail.to === to);
  }

  async function lastMailMatch(to: string, pattern: RegExp): Promise<string> {
    const found = (await mails(to)).reverse().map((mail) => pattern.exec(mail.text)?.[1]).find(Boolean);
    if (!found) throw new Error(`no mail to ${to} matching ${pattern}`);
    return found;
  }

  async function events(subject: string): Promise<{ id: string; version: number; data: Record<string, unknown> }[]> {
    const rows: { envelope: { id: string; version: number; data: Record<string, unknown> } }[] = await runtime
      .db('outbox')
      .where({ subject })
      .orderBy('seq');
    return rows.map((row) => row.envelope);
  }

  return {
    app,
    runtime,
    auth,
    clock,
    config,
    settings,
    registration,
    register,
    createPilot,
    login,
    signedIn,
    adminCookies,
    mails,
    temporaryPassword: (to: string) => lastMailMatch(to, /temporary password is: (\S+)/),
    verificationCode: (to: string) => lastMailMatch(to, /verification code is (\d+)/),
    events,
    async close() {
      settingsRpc.unsubscribe();
      await deleteStreams(runtime.bus);
      await auth.close();
      await database.drop();
    },
  };
}
export type Harness = Awaited<ReturnType<typeof startAuth>>;

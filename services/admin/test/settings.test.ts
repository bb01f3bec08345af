import { randomUUID } from 'node:crypto';
import { ADMIN_COOKIE, connectBus, createSettingsClient, PILOT_COOKIE, requestRpc, signPilotToken, type Bus } from '@crewswap/kit';
import { createTestDatabase, eventually, testBaseConfig, TEST_KEYS } from '@crewswap/kit-testing';
import { GetSettingsReply, PUBLIC_SETTING_KEYS, RPC, Setting, SETTING_DEFAULTS, SETTING_KEYS, SUBJECTS, type Permission, type SettingKey } from '@crewswap/proto';
import { adminWith, FUZZ_BODIES, login, MASTER, startAdmin, stopAdmin, type TestDatabase } from './helpers';

describe('settings', () => {
  let database: TestDatabase;
  let admin: Awaited<ReturnType<typeof startAdmin>>;
  let master: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    admin = await startAdmin(database, {
      env: { TESTING_BUTTON_ENABLED: 'true', TESTING_PASSWORD: 'let-me-test', ROSTER_UPLOAD_EMAIL: 'rosters@crewswap.test' },
    });
    master = await login(admin, MASTER.email, MASTER.password);
  });
  afterAll(async () => {
    await stopAdmin(admin);
    await database.drop();
  });

  const put = (key: string, value: unknown, cookie = master) =>
    admin.app.inject({ method: 'PUT', url: `/api/admin/settings/${key}`, payload: { value }, cookies: { [ADMIN_COOKIE]: cookie } });
  const list = (cookies: Record<string, string> = { [ADMIN_COOKIE]: master }) => admin.app.inject({ method: 'GET', url: '/api/admin/settings', cookies });
  const valueOf = async (key: SettingKey) => ((await list()).json() as Setting[]).find((s) => s.key === key)?.value;
  const stored = async (key: SettingKey) => ((await admin.runtime.db('settings').where({ key }).first('value')) as { value: string }).value;

  describe('seeding', () => {
    it('seeds every setting on first start: the spec defaults, with the testing and upload values from the environment', async () => {
      const response = await list();
      expect(response.statusCode).toBe(200);
      const settings = response.json() as Setting[];
      expect(settings.map((s) => s.key)).toEqual([...SETTING_KEYS]);
      for (const setting of settings) expect(Setting.parse(setting)).toEqual(setting);
      const values = Object.fromEntries(settings.map((s) => [s.key, s.value]));
      expect(values).toEqual({
        ...SETTING_DEFAULTS,
        testing_button_enabled: 'true',
        // Never sent to a browser: only that one is set.
        testing_password: '',
        upload_email: 'rosters@crewswap.test',
      });
      expect(settings.find((s) => s.key === 'testing_password')?.isSet).toBe(true);
      expect(response.body).not.toContain('let-me-test');
      expect(await stored('testing_password')).toBe('let-me-test');
      expect(settings[0]!.updated_at).toBe('2026-11-23T10:15:00.000Z');
    });

    it('prefers UPLOAD_EMAIL to ROSTER_UPLOAD_EMAIL', async () => {
      const fresh = await createTestDatabase();
      const service = await startAdmin(fresh, { env: { UPLOAD_EMAIL: 'upload@crewswap.test', ROSTER_UPLOAD_EMAIL: 'fallback@crewswap.test' } });
      try {
        const response = await service.app.inject({ method: 'GET', url: '/api/settings/upload_email' });
        expect(response.json()).toEqual({ value: 'upload@crewswap.test' });
      } finally {
        await stopAdmin(service);
        await fresh.drop();
      }
    });

    it('starts the Roster Upload Email as roster-upload@crewswap.local when neither UPLOAD_EMAIL nor ROSTER_UPLOAD_EMAIL is set, so System Settings can be saved as seeded', async () => {
      const fresh = await createTestDatabase();
      const service = await startAdmin(fresh);
      try {
        const response = await service.app.inject({ method: 'GET', url: '/api/settings/upload_email' });
        expect(response.json()).toEqual({ value: 'roster-upload@crewswap.local' });
        const cookie = await login(service, MASTER.email, MASTER.password);
        const saved = await service.app.inject({ method: 'PUT', url: '/api/admin/settings/upload_email', payload: { value: 'roster-upload@crewswap.local' }, cookies: { [ADMIN_COOKIE]: cookie } });
        expect(saved.statusCode).toBe(200);
      } finally {
        await stopAdmin(service);
        await fresh.drop();
      }
    });

    it('never overwrites a setting on restart, whatever the environment says now', async () => {
      expect((await put('testing_button_enabled', 'false')).statusCode).toBe(200);
      const again = await startAdmin(database, { prefix: admin.prefix, env: { TESTING_BUTTON_ENABLED: 'true', TESTING_PASSWORD: 'changed' } });
      try {
        const settings = await again.runtime.db('settings').whereIn('key', ['testing_button_enabled', 'testing_password']).select('key', 'value');
        expect(Object.fromEntries(settings.map((s: { key: string; value: string }) => [s.key, s.value]))).toEqual({
          testing_button_enabled: 'false',
          testing_password: 'let-me-test',
        });
      } finally {
        await stopAdmin(again, { deleteStreams: false });
      }
    });
  });

  describe('PUT /api/admin/settings/{key} validation (admin spec section 5)', () => {
    it.each<[SettingKey, unknown, string]>([
      ['interbids_url', 'not a url', 'Please enter a valid URL'],
      ['interbids_url', 'javascript:alert(1)', 'Please enter a valid URL'],
      ['interbids_url', '', 'Please enter a valid URL'],
      ['swap_search_days', '0', 'Must be at least 1 day'],
      ['swap_search_days', 0, 'Must be at least 1 day'],
      ['swap_search_days', '31', 'Cannot exceed 30 days'],
      ['swap_search_days', 'four', 'Must be a number'],
      ['swap_search_days', '2.5', 'Must be a whole number'],
      ['upload_email', 'not-an-email', 'Please enter a valid email address'],
      ['outgoing_email', 'a@', 'Please enter a valid email address'],
      ['user_guide_path', '   ', 'User guide path is required'],
      ['session_timeout_minutes', '4', 'Must be at least 5 minutes'],
      ['session_timeout_minutes', '1441', 'Cannot exceed 24 hours (1440 minutes)'],
      ['email_verification_enabled', 'yes', "Must be 'true' or 'false'"],
      ['testing_button_enabled', 'on', "Must be 'true' or 'false'"],
      ['testing_password', '', 'Testing password is required'],
      ['testing_password', 'x', 'Testing password must be at least 8 characters long'],
      ['testing_password', 'seven77', 'Testing password must be at least 8 characters long'],
      ['daily_access_code', ' ', 'Daily access code is required'],
      ['daily_access_code', '5', 'Daily access code must be exactly 6 digits'],
      ['daily_access_code', '12345a', 'Daily access code must be exactly 6 digits'],
      ['daily_access_code', '1234567', 'Daily access code must be exactly 6 digits'],
      ['access_code_path', '', 'Access code path is required'],
      ['access_code_email', 'nope', 'Please enter a valid email address'],
      ['tech_support_whatsapp_url', 'https://example.com/AbCdEfGhIjKlMnOpQrStUv', 'Please enter a WhatsApp group invite link (https://chat.whatsapp.com/...)'],
      ['tech_support_whatsapp_url', 'javascript:alert(1)', 'Please enter a WhatsApp group invite link (https://chat.whatsapp.com/...)'],
      ['crewing_email', 'crewing desk', 'Please enter a valid email address'],
    ])('refuses %s = %j with %s', async (key, value, message) => {
      const before = await valueOf(key);
      const response = await put(key, value);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: message, fields: { value: message } });
      expect(await valueOf(key)).toBe(before);
    });

    it.each<[SettingKey, unknown, string]>([
      ['interbids_url', ' https://interbids.example.test/login ', 'https://interbids.example.test/login'],
      ['swap_search_days', '1', '1'],
      ['swap_search_days', 30, '30'],
      ['upload_email', 'roster@crewswap.test', 'roster@crewswap.test'],
      ['outgoing_email', 'noreply@crewswap.test', 'noreply@crewswap.test'],
      ['user_guide_path', '/guide.pdf', '/guide.pdf'],
      ['session_timeout_minutes', '5', '5'],
      ['session_timeout_minutes', 1440, '1440'],
      ['email_verification_enabled', false, 'false'],
      ['testing_button_enabled', 'true', 'true'],
      ['daily_access_code', '123456', '123456'],
      ['access_code_path', '/code', '/code'],
      ['access_code_email', 'codes@crewswap.test', 'codes@crewswap.test'],
      // The Tech Support Group's join link: a WhatsApp invite link, or blank until there is one.
      ['tech_support_whatsapp_url', ' https://chat.whatsapp.com/AbCdEfGhIjKlMnOpQrStUv ', 'https://chat.whatsapp.com/AbCdEfGhIjKlMnOpQrStUv'],
      ['tech_support_whatsapp_url', '', ''],
      // Agreed swaps' crewing requests also go here; blank mails only the two pilots.
      ['crewing_email', ' crewing@fly.virgin.com ', 'crewing@fly.virgin.com'],
      ['crewing_email', '', ''],
    ])('stores %s = %j as %j', async (key, value, stored) => {
      admin.clock.set('2026-11-24T09:00:00Z');
      const response = await put(key, value);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ key, value: stored, updated_at: '2026-11-24T09:00:00.000Z' });
      expect(await valueOf(key)).toBe(stored);
    });

    it('stores the testing password as typed and answers only that one is set, never the value', async () => {
      admin.clock.set('2026-11-24T09:00:00Z');
      const response = await put('testing_password', ' spaced secret ');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ key: 'testing_password', value: '', isSet: true, updated_at: '2026-11-24T09:00:00.000Z' });
      expect(await stored('testing_password')).toBe(' spaced secret ');
      expect((await list()).body).not.toContain('spaced secret');
      await put('testing_password', 'let-me-test');
    });

    it('answers 404 for an unknown key', async () => {
      const response = await put('no_such_setting', 'x');
      expect(response.statusCode).toBe(404);
      expect(typeof response.json().error).toBe('string');
    });

    it('answers 400, never 500, to fuzzed bodies', async () => {
      for (const payload of FUZZ_BODIES) {
        const response = await admin.app.inject({
          method: 'PUT',
          url: '/api/admin/settings/swap_search_days',
          payload,
          headers: { 'content-type': 'application/json' },
          cookies: { [ADMIN_COOKIE]: master },
        });
        expect({ payload: payload.slice(0, 60), status: response.statusCode }).toEqual({ payload: payload.slice(0, 60), status: 400 });
        expect(typeof response.json().error).toBe('string');
      }
      // A key past fastify's parameter limit is refused before any handler runs (414).
      expect((await put('k'.repeat(5000), 'x')).statusCode).toBe(414);
    });
  });

  describe('permissions', () => {
    const cookies = new Map<string, string>();
    const as = async (permissions: Permission[]) => {
      const name = permissions.join(',');
      if (!cookies.has(name)) cookies.set(name, await adminWith(admin, permissions));
      return cookies.get(name)!;
    };

    it.each<[string, SettingKey, number, Permission[]]>([
      ['no permission', 'swap_search_days', 403, []],
      ['no permission', 'session_timeout_minutes', 403, []],
      ['manage_pilots only', 'interbids_url', 403, ['manage_pilots']],
      ['manage_settings only', 'swap_search_days', 200, ['manage_settings']],
      ['manage_settings only', 'session_timeout_minutes', 403, ['manage_settings']],
      ['view_security_alerts', 'swap_search_days', 403, ['view_security_alerts']],
      ['view_security_alerts', 'session_timeout_minutes', 200, ['view_security_alerts']],
      ['view_security_alerts', 'testing_password', 200, ['view_security_alerts']],
      ['manage_system', 'swap_search_days', 200, ['manage_system']],
      ['manage_system', 'daily_access_code', 200, ['manage_system']],
    ])('an admin with %s changing %s gets %i', async (_name, key, status, permissions) => {
      const value = { swap_search_days: '5', session_timeout_minutes: '60', interbids_url: 'https://a.test', testing_password: 'pw-long-enough', daily_access_code: '654321' }[
        key as string
      ];
      const response = await put(key, value, await as(permissions));
      expect(response.statusCode).toBe(status);
      if (status === 403) expect(response.json().error).toBe('You do not have permission to do this.');
    });

    it.each<[string, Permission[], number]>([
      ['no permission', [], 403],
      ['every permission but manage_system, manage_settings and view_security_alerts', ['manage_pilots', 'manage_destinations', 'manage_admins', 'view_analytics'], 403],
      ['manage_settings', ['manage_settings'], 200],
      ['manage_system', ['manage_system'], 200],
      ['view_security_alerts', ['view_security_alerts'], 200],
    ])('an admin with %s reading the settings list gets %i', async (_name, permissions, status) => {
      const response = await list({ [ADMIN_COOKIE]: await as(permissions) });
      expect(response.statusCode).toBe(status);
      if (status === 403) expect(response.json().error).toBe('You do not have permission to do this.');
    });

    it('shows testing_password and daily_access_code only to a master admin or a holder of view_security_alerts', async () => {
      const keysFor = async (cookie: string) => ((await list({ [ADMIN_COOKIE]: cookie })).json() as Setting[]).map((s) => s.key);
      const secrets = ['testing_password', 'daily_access_code'];
      expect(await keysFor(await as(['manage_system']))).toEqual(SETTING_KEYS.filter((key) => !secrets.includes(key)));
      expect(await keysFor(await as(['view_security_alerts']))).toEqual([...SETTING_KEYS]);
      expect(await keysFor(master)).toEqual([...SETTING_KEYS]);
    });

    it('answers 401 without a session and to a pilot cookie', async () => {
      const pilotToken = signPilotToken(TEST_KEYS.privateKey, { sessionId: randomUUID(), pilotId: randomUUID() });
      const cases: Record<string, string>[] = [{}, { [PILOT_COOKIE]: pilotToken }, { [ADMIN_COOKIE]: pilotToken }];
      for (const cookies of cases) {
        expect((await list(cookies)).statusCode).toBe(401);
        const response = await admin.app.inject({ method: 'PUT', url: '/api/admin/settings/swap_search_days', payload: { value: '5' }, cookies });
        expect(response.statusCode).toBe(401);
      }
    });
  });

  describe('public GET /api/settings/{key}', () => {
    it.each([...PUBLIC_SETTING_KEYS])('answers {value} for %s without a session', async (key) => {
      const response = await admin.app.inject({ method: 'GET', url: `/api/settings/${key}` });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ value: await valueOf(key) });
    });

    it.each(SETTING_KEYS.filter((key) => !(PUBLIC_SETTING_KEYS as readonly string[]).includes(key)).concat(['nonsense' as SettingKey]))(
      'answers 404 for %s',
      async (key) => {
        const response = await admin.app.inject({ method: 'GET', url: `/api/settings/${key}`, cookies: { [ADMIN_COOKIE]: master } });
        expect(response.statusCode).toBe(404);
        expect(response.body).not.toContain('let-me-test');
      },
    );
  });

  describe('daily access code: reachable at access_code_path, mailed to access_code_email when it changes', () => {
    const accessCode = (path: string, cookies: Record<string, string> = { [ADMIN_COOKIE]: master }) =>
      admin.app.inject({ method: 'GET', url: `/api/access-code?path=${encodeURIComponent(path)}`, cookies });
    const mailsTo = async (to: string) =>
      (await admin.runtime.db('outbox').where({ subject: SUBJECTS.sendMail }))
        .map((row: { envelope: { data: { to: string; subject: string; text: string } } }) => row.envelope.data)
        .filter((mail: { to: string }) => mail.to === to);

    it('mails a new daily access code to the access code email, once per change', async () => {
      expect((await put('access_code_email', 'daily-codes@crewswap.test')).statusCode).toBe(200);
      expect((await put('daily_access_code', '482913')).statusCode).toBe(200);
      const mails = await mailsTo('daily-codes@crewswap.test');
      expect(mails).toHaveLength(1);
      expect(mails[0]).toMatchObject({ subject: 'CrewSwap: new daily access code' });
      expect(mails[0]!.text).toContain('482913');
      // The same code saved again is no change: no second mail.
      await put('daily_access_code', '482913');
      expect(await mailsTo('daily-codes@crewswap.test')).toHaveLength(1);
    });

    it('is reachable at the access code path for a signed-in administrator; any other path or no session is refused', async () => {
      await put('access_code_path', '/crew-access');
      await put('daily_access_code', '551177');
      const found = await accessCode('/crew-access');
      expect(found.statusCode).toBe(200);
      expect(found.json()).toEqual({ code: '551177', updatedAt: expect.any(String) });
      expect(found.headers['cache-control']).toBe('no-store');
      expect((await accessCode('/crew-access/')).statusCode).toBe(200);
      expect((await accessCode('/access-code')).statusCode).toBe(404);
      expect((await accessCode('/crew-access', {})).statusCode).toBe(401);
    });

    it('is reachable at the access code path for a signed-in pilot too', async () => {
      await put('access_code_path', '/crew-access');
      await put('daily_access_code', '551178');
      const pilot = { [PILOT_COOKIE]: signPilotToken(TEST_KEYS.privateKey, { sessionId: randomUUID(), pilotId: randomUUID() }) };
      const found = await accessCode('/crew-access', pilot);
      expect(found.statusCode).toBe(200);
      expect(found.json()).toMatchObject({ code: '551178' });
    });
  });

  describe('admin.settings.changed', () => {
    let bus: Bus;
    beforeAll(async () => {
      // Another service's connection, as a settings client elsewhere would have.
      const { NATS_URL } = testBaseConfig(database.url, admin.prefix);
      bus = await connectBus({ url: NATS_URL, prefix: admin.prefix, name: 'other', log: admin.runtime.log });
    });
    afterAll(async () => {
      await bus.close();
    });

    it('answers every setting over request/reply', async () => {
      const values = await requestRpc(bus, RPC.getSettings, {}, GetSettingsReply);
      expect(Object.keys(values).sort()).toEqual([...SETTING_KEYS].sort());
      expect(values.testing_password).toBe(await stored('testing_password'));
    });

    it('reaches JetStream with {key, value}, and a settings client sees the new value within a second', async () => {
      const client = createSettingsClient(bus, admin.runtime.log);
      try {
        await put('swap_search_days', '4');
        expect(await client.get('swap_search_days')).toBe('4');
        expect((await put('swap_search_days', '9')).statusCode).toBe(200);
        const started = Date.now();
        await eventually(async () => (await client.get('swap_search_days')) === '9', 1000);
        expect(Date.now() - started).toBeLessThan(1000);

        const message = await bus.jsm.streams.getMessage(bus.stream('ADMIN'), { last_by_subj: bus.subject(SUBJECTS.settingsChanged) });
        expect(message.json()).toMatchObject({ type: SUBJECTS.settingsChanged, data: { key: 'swap_search_days', value: '9' } });
      } finally {
        client.stop();
      }
    });

    it('writes no event when the value is refused', async () => {
      const before = await admin.runtime.db('outbox').where({ subject: SUBJECTS.settingsChanged }).count({ n: '*' }).first();
      await put('swap_search_days', '99');
      expect(await admin.runtime.db('outbox').where({ subject: SUBJECTS.settingsChanged }).count({ n: '*' }).first()).toEqual(before);
    });
  });
});

import { PILOT_COOKIE } from '@crewswap/kit';
import { TestPilotList } from '@crewswap/proto';
import { startAuth, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startAuth({ testing_button_enabled: 'false', testing_password: 'let-me-test' });
});
afterAll(() => h.close());

const testLogin = (email: string, password: string, from?: string) =>
  h.app.inject({ method: 'POST', url: '/api/auth/test-login', payload: { email, password }, ...(from ? { headers: { 'x-forwarded-for': from } } : {}) });
const allPilots = () => h.app.inject({ method: 'GET', url: '/api/pilots/all' });

describe('Testing mode (testing_button_enabled)', () => {
  it('off: test-login and /api/pilots/all do not exist (404)', async () => {
    h.settings.testing_button_enabled = 'false';
    const pilot = await h.createPilot();
    expect((await testLogin(pilot.email, 'let-me-test')).statusCode).toBe(404);
    expect((await allPilots()).statusCode).toBe(404);
  });

  describe('on', () => {
    beforeAll(() => {
      h.settings.testing_button_enabled = 'true';
    });

    it("test-login checks the testing password on the server: 'Access Denied' / 'Incorrect password.'", async () => {
      const pilot = await h.createPilot();
      const denied = await testLogin(pilot.email, 'guess');
      expect(denied.statusCode).toBe(403);
      expect(denied.json()).toEqual({ title: 'Access Denied', error: 'Incorrect password.', remainingAttempts: 4 });
    });

    it('5 wrong testing passwords in a row lock test login for 15 minutes, the right one included', async () => {
      const pilot = await h.createPilot();
      expect((await testLogin(pilot.email, 'let-me-test')).statusCode).toBe(200);
      const remaining = [];
      for (let i = 0; i < 4; i += 1) remaining.push((await testLogin(pilot.email, `guess-${i}`)).json().remainingAttempts);
      expect(remaining).toEqual([4, 3, 2, 1]);
      const fifth = await testLogin(pilot.email, 'guess-5');
      expect([fifth.statusCode, fifth.json()]).toEqual([
        429,
        { error: 'Too many wrong testing passwords. Test login is locked; please try again in 15 minutes.', title: 'Test Login Failed', accountLocked: true },
      ]);
      expect((await testLogin(pilot.email, 'let-me-test')).statusCode).toBe(429);
      h.clock.advance(15 * 60_000);
      expect((await testLogin(pilot.email, 'let-me-test')).statusCode).toBe(200);
    });

    it('wrong passwords for a made-up email lock test login for that email only, not for everyone', async () => {
      const pilot = await h.createPilot();
      const from = '203.0.113.10';
      for (let i = 0; i < 4; i += 1) expect((await testLogin('made.up@fly.virgin.com', `guess-${i}`, from)).statusCode).toBe(403);
      expect((await testLogin('made.up@fly.virgin.com', 'guess-5', from)).statusCode).toBe(429);
      expect((await testLogin('made.up@fly.virgin.com', 'let-me-test', from)).statusCode).toBe(429);
      // Another pilot, from the same address and from another, still gets in.
      expect((await testLogin(pilot.email, 'let-me-test', from)).statusCode).toBe(200);
      expect((await testLogin(pilot.email, 'let-me-test', '203.0.113.11')).statusCode).toBe(200);
    });

    it('20 wrong passwords in a row from one address, whichever pilots they name, lock test login from that address only', async () => {
      const pilot = await h.createPilot();
      const from = '203.0.113.20';
      const statuses = [];
      for (let i = 0; i < 20; i += 1) statuses.push((await testLogin(`guess${i}@fly.virgin.com`, 'wrong-password', from)).statusCode);
      expect(statuses.slice(0, 19)).toEqual(Array(19).fill(403));
      expect(statuses[19]).toBe(429);
      expect((await testLogin(pilot.email, 'let-me-test', from)).statusCode).toBe(429);
      expect((await testLogin(pilot.email, 'let-me-test', '203.0.113.21')).statusCode).toBe(200);
      h.clock.advance(15 * 60_000);
      expect((await testLogin(pilot.email, 'let-me-test', from)).statusCode).toBe(200);
    });

    it('test-login logs in as the chosen pilot without their password', async () => {
      const pilot = await h.createPilot();
      const response = await testLogin(pilot.email, 'let-me-test');
      expect(response.statusCode).toBe(200);
      expect(response.json().pilot.id).toBe(pilot.id);
      const cookie = response.cookies.find((c) => c.name === PILOT_COOKIE)!.value;
      const current = await h.app.inject({ method: 'GET', url: '/api/pilot/current', cookies: { [PILOT_COOKIE]: cookie } });
      expect(current.json().id).toBe(pilot.id);
    });

    it('an empty testing password lets nobody in', async () => {
      h.settings.testing_password = '';
      try {
        const pilot = await h.createPilot();
        expect((await testLogin(pilot.email, 'x')).statusCode).toBe(403);
      } finally {
        h.settings.testing_password = 'let-me-test';
      }
    });

    it("an unknown pilot is 'Test Login Failed'", async () => {
      const response = await testLogin('nobody@fly.virgin.com', 'let-me-test');
      expect(response.statusCode).toBe(404);
      expect(response.json().title).toBe('Test Login Failed');
    });

    it('/api/pilots/all lists pilots for the dialog, sorted by name, with nothing secret', async () => {
      await h.createPilot({ firstName: 'zoe', lastName: 'adams', rank: 'FO', apic: true, fleet: 'B787' });
      await h.createPilot({ firstName: 'adam', lastName: 'young', rank: 'CP', ltc: true });
      const response = await allPilots();
      expect(response.statusCode).toBe(200);
      const pilots = TestPilotList.parse(response.json());
      expect(pilots.map((p) => p.name)).toEqual([...pilots.map((p) => p.name)].sort((a, b) => a.localeCompare(b)));
      expect(pilots.find((p) => p.name === 'Zoe Adams')).toMatchObject({ rank: 'FO', fleet: 'B787', apic: true, ltc: false, testData: false });
      expect(Object.keys(response.json()[0]).sort()).toEqual(
        ['apic', 'email', 'employeeId', 'firstName', 'fleet', 'id', 'lastName', 'ltc', 'name', 'rank', 'testData'].sort(),
      );
      expect(response.body).not.toMatch(/scrypt|password|phone/i);
    });
  });
});

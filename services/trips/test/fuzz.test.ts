import { adminCookie, makePilot, pilotCookie, registerPilot, startTestService, tripBody, type TestService } from './helpers';

/** Small seeded generator so a failure reproduces. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const nasty: unknown[] = [
  null,
  true,
  -1,
  0,
  1.5,
  1e308,
  '',
  ' ',
  'x'.repeat(100_000),
  '2026-02-30',
  '2026-13-01',
  "'; DROP TABLE trips; --",
  '\u0000',
  '💥💥💥',
  [],
  ['VS003'],
  {},
  { $gt: '' },
];

describe('fuzzed bodies answer 400, never 500', () => {
  let service: TestService;
  let tripId: string;
  let pilotCookies: Record<string, string>;
  const admin = adminCookie(['manage_destinations']);

  beforeAll(async () => {
    service = await startTestService();
    const pilot = await registerPilot(service, makePilot({ fleet: 'SFF', rank: 'CP', ltc: true }));
    pilotCookies = pilotCookie(pilot.id);
    tripId = (await service.app.inject({ method: 'POST', url: '/api/trips', cookies: pilotCookies, payload: tripBody({ aircraft: 'A350' }) })).json().id;
  });
  afterAll(async () => {
    await service.stop();
  });

  const targets = () =>
    [
      ['POST', '/api/trips', pilotCookies, tripBody({ aircraft: 'A350', startDate: '2026-11-20', endDate: '2026-11-21' })],
      ['PATCH', `/api/trips/${tripId}`, pilotCookies, { route: 'BOS', companions: 2 }],
      ['PATCH', `/api/trips/${tripId}/swappable`, pilotCookies, { isSwappable: true, swapDescription: 'x', searchStartDate: '2026-11-09' }],
      ['PATCH', `/api/trips/${tripId}/description`, pilotCookies, { swapDescription: 'x' }],
      ['PATCH', `/api/trips/${tripId}/requested`, pilotCookies, { requested: true }],
      ['POST', `/api/trips/${tripId}/whatsapp-group`, pilotCookies, { createdByPilotId: tripId, creatorName: 'x', justCreatedByOther: false }],
      ['PATCH', `/api/trips/${tripId}/whatsapp-group`, pilotCookies, { inviteLink: 'https://chat.whatsapp.com/AbCdEfGhIjKlMnOpQrStUv' }],
      ['POST', '/api/iata-codes', pilotCookies, { iataCode: 'XQA', icaoCode: 'XQAA', continent: 'EU', isoCountry: 'GB', municipality: 'Nowhere' }],
      ['POST', '/api/admin/iata-codes', admin, { iataCode: 'XQB' }],
      ['POST', '/api/admin/excluded-airports', admin, { iataCode: 'XQC' }],
    ] as const;

  it('every field replaced by wrong types, huge strings and odd values', async () => {
    for (const [method, url, cookies, valid] of targets()) {
      for (const field of Object.keys(valid)) {
        for (const value of nasty) {
          const payload = { ...valid, [field]: value };
          const response = await service.app.inject({ method, url, cookies, payload });
          expect([url, field, response.statusCode < 500]).toEqual([url, field, true]);
          expect(typeof response.json().error === 'string' || response.statusCode < 300).toBe(true);
        }
      }
    }
  });

  it('unknown fields, non-object bodies and invalid JSON are refused with 400', async () => {
    for (const [method, url, cookies, valid] of targets()) {
      const unknown = await service.app.inject({ method, url, cookies, payload: { ...valid, pilotId: 'someone-else', isAdmin: true } });
      expect([url, unknown.statusCode]).toEqual([url, 400]);
      expect(unknown.json().error).toMatch(/Unknown field/);
      for (const payload of ['[]', '"text"', '42', 'null', '{"unterminated": ']) {
        const response = await service.app.inject({ method, url, cookies, payload, headers: { 'content-type': 'application/json' } });
        expect([url, payload, response.statusCode]).toEqual([url, payload, 400]);
      }
    }
  });

  it('random bodies built from random keys and values', async () => {
    const next = random(20261101);
    const keys = ['flightNoStart', 'flightNoEnd', 'route', 'startDate', 'endDate', 'aircraft', 'companions', 'isSwappable', 'requested', 'training', 'swapDescription', 'searchStartDate', 'searchEndDate', 'iataCode', 'skipNotification'];
    const values: unknown[] = [...nasty, 'VS003', 'JFK', '2026-11-15', 'A330', 5, false];
    for (let round = 0; round < 300; round += 1) {
      const [method, url, cookies] = targets()[Math.floor(next() * targets().length)]!;
      const payload: Record<string, unknown> = {};
      for (let i = Math.floor(next() * 5); i > 0; i -= 1) payload[keys[Math.floor(next() * keys.length)]!] = values[Math.floor(next() * values.length)];
      const response = await service.app.inject({ method, url, cookies, payload });
      expect([url, payload, response.statusCode < 500]).toEqual([url, payload, true]);
    }
  });
});

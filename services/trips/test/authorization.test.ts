import { randomUUID } from 'node:crypto';
import { adminCookie, makePilot, pilotCookie, registerPilot, startTestService, tripBody, type TestService } from './helpers';

describe('authorization', () => {
  let service: TestService;
  let tripId: string;
  let owner: Record<string, string>;
  let other: Record<string, string>;

  beforeAll(async () => {
    service = await startTestService();
    const ownerPilot = await registerPilot(service, makePilot());
    const otherPilot = await registerPilot(service, makePilot());
    owner = pilotCookie(ownerPilot.id);
    other = pilotCookie(otherPilot.id);
    tripId = (await service.app.inject({ method: 'POST', url: '/api/trips', cookies: owner, payload: tripBody() })).json().id;
  });
  afterAll(async () => {
    await service.stop();
  });

  const tripRoutes = (id: string) =>
    [
      ['PATCH', `/api/trips/${id}`, { route: 'BOS' }],
      ['DELETE', `/api/trips/${id}`, undefined],
      ['PATCH', `/api/trips/${id}/swappable`, { isSwappable: true }],
      ['PATCH', `/api/trips/${id}/description`, { swapDescription: 'mine now' }],
      ['PATCH', `/api/trips/${id}/requested`, { requested: true }],
      ['GET', `/api/trips/${id}/pilots`, undefined],
      ['GET', `/api/trips/${id}/whatsapp-group`, undefined],
      ['POST', `/api/trips/${id}/whatsapp-group`, {}],
      ['PATCH', `/api/trips/${id}/whatsapp-group`, { inviteLink: 'https://chat.whatsapp.com/AbCdEfGhIjKlMnOpQrStUv' }],
      ['DELETE', `/api/trips/${id}/whatsapp-group`, undefined],
      ['POST', `/api/trips/${id}/whatsapp-group/claim`, undefined],
    ] as const;

  it("another pilot's trip answers 404 on every trip route and stays unchanged", async () => {
    for (const [method, url, payload] of tripRoutes(tripId)) {
      const response = await service.app.inject({ method, url, cookies: other, ...(payload ? { payload } : {}) });
      expect([url, response.statusCode]).toEqual([url, 404]);
      expect(response.json()).toEqual({ error: 'Trip not found' });
    }
    const mine = (await service.app.inject({ method: 'GET', url: '/api/trips', cookies: owner })).json();
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ route: 'JFK', isSwappable: false, swapDescription: null, requested: false });
    const theirs = (await service.app.inject({ method: 'GET', url: '/api/trips', cookies: other })).json();
    expect(theirs).toEqual([]);
  });

  it('a trip id that does not exist answers 404, and one that is not an id 400', async () => {
    const missing = await service.app.inject({ method: 'PATCH', url: `/api/trips/${randomUUID()}`, cookies: owner, payload: { route: 'BOS' } });
    expect(missing.statusCode).toBe(404);
    const bad = await service.app.inject({ method: 'DELETE', url: '/api/trips/not-an-id', cookies: owner });
    expect(bad.statusCode).toBe(400);
  });

  it('every trip route answers 401 without a pilot session (an admin session is not one)', async () => {
    const routes = [
      ['GET', '/api/trips', undefined],
      ['POST', '/api/trips', tripBody()],
      ...tripRoutes(tripId),
      ['POST', '/api/iata-codes', { iataCode: 'XQX' }],
      ['GET', '/api/master-calendar/CP/A350', undefined],
      ['GET', '/api/crossover-trips', undefined],
      ['GET', '/api/usual-requests/search?date=2026-11-10&flightNumber=VS003', undefined],
      ['GET', '/api/stats', undefined],
    ] as const;
    for (const [method, url, payload] of routes) {
      for (const cookies of [{}, adminCookie([], true), { crewswap_session: 'forged.token.here' }]) {
        const response = await service.app.inject({ method, url, cookies, ...(payload ? { payload } : {}) });
        expect([method, url, response.statusCode]).toEqual([method, url, 401]);
        expect(response.json()).toEqual({ error: 'Session expired' });
      }
    }
  });

  it('admin IATA and excluded-airport routes answer 401 without an admin session and 403 without manage_destinations', async () => {
    const routes = [
      ['GET', '/api/admin/iata-codes', undefined],
      ['POST', '/api/admin/iata-codes', { iataCode: 'XQX' }],
      ['PATCH', `/api/admin/iata-codes/${randomUUID()}`, { municipality: 'X' }],
      ['DELETE', `/api/admin/iata-codes/${randomUUID()}`, undefined],
      ['GET', '/api/admin/excluded-airports', undefined],
      ['POST', '/api/admin/excluded-airports', { iataCode: 'XQX' }],
      ['DELETE', `/api/admin/excluded-airports/${randomUUID()}`, undefined],
    ] as const;
    for (const [method, url, payload] of routes) {
      const body = payload ? { payload } : {};
      expect((await service.app.inject({ method, url, ...body })).statusCode).toBe(401);
      expect((await service.app.inject({ method, url, cookies: owner, ...body })).statusCode).toBe(401);
      const forbidden = await service.app.inject({ method, url, cookies: adminCookie(['manage_pilots', 'manage_system']), ...body });
      expect([url, forbidden.statusCode]).toEqual([url, 403]);
    }
    expect((await service.app.inject({ method: 'GET', url: '/api/admin/excluded-airports', cookies: adminCookie(['manage_destinations']) })).statusCode).toBe(200);
  });
});

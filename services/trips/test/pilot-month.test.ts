/**
 * The month view (issue 55): `GET /api/pilot/month?month=YYYY-MM` answers the pilot's block, duty,
 * days away and days off, and with `with` (an offered trip) and `without` (the pilot's own) the
 * same totals after that swap.
 */
import { randomUUID } from 'node:crypto';
import { TRIP_MESSAGES, type Trip } from '@crewswap/proto';
import { makePilot, pilotCookie, registerPilot, startTestService, tripBody, type TestService } from './helpers';

describe('trips: the pilot month view', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.stop();
  });

  async function newPilot() {
    const pilot = await registerPilot(service, makePilot());
    const cookies = pilotCookie(pilot.id);
    const add = async (body: Record<string, unknown>) => {
      const response = await service.app.inject({ method: 'POST', url: '/api/trips', cookies, payload: tripBody(body) });
      expect(response.statusCode).toBe(201);
      return response.json() as Trip;
    };
    const month = (query: string) => service.app.inject({ method: 'GET', url: `/api/pilot/month?${query}`, cookies });
    return { add, month };
  }

  it("answers the month's block, duty, days away and days off; a trip without times is counted apart", async () => {
    const { add, month } = await newPilot();
    await add({ startDate: '2026-11-10', endDate: '2026-11-10', reportAt: '2026-11-10T06:00:00Z', releaseAt: '2026-11-10T16:00:00Z' });
    await add({ startDate: '2026-11-20', endDate: '2026-11-22' });
    const response = await month('month=2026-11');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      month: '2026-11',
      totals: { blockMinutes: 0, dutyMinutes: 600, daysAway: 4, daysOff: 26, tripsWithoutTimes: 1 },
      after: null,
    });
  });

  it("with another pilot's offered trip and without my own: the totals after the swap", async () => {
    const me = await newPilot();
    const other = await newPilot();
    await me.add({ startDate: '2026-11-10', endDate: '2026-11-10', reportAt: '2026-11-10T06:00:00Z', releaseAt: '2026-11-10T16:00:00Z' });
    const mine = await me.add({ startDate: '2026-11-20', endDate: '2026-11-22' });
    const offered = await other.add({ startDate: '2026-11-15', endDate: '2026-11-15', reportAt: '2026-11-15T08:00:00Z', releaseAt: '2026-11-15T20:30:00Z' });
    const response = await me.month(`month=2026-11&with=${offered.id}&without=${mine.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json().after).toEqual({ blockMinutes: 0, dutyMinutes: 600 + 750, daysAway: 2, daysOff: 28, tripsWithoutTimes: 0 });
    // Taking a trip without giving one (a pick-up) adds it to the month.
    expect((await me.month(`month=2026-11&with=${offered.id}`)).json().after).toMatchObject({ dutyMinutes: 1350, daysAway: 5 });
  });

  it("refuses to give away a trip that is not the pilot's own, and a trip that does not exist (404)", async () => {
    const me = await newPilot();
    const other = await newPilot();
    const theirs = await other.add({ startDate: '2026-11-15', endDate: '2026-11-15' });
    for (const query of [`without=${theirs.id}`, `with=${randomUUID()}`]) {
      const response = await me.month(`month=2026-11&${query}`);
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toBe(TRIP_MESSAGES.tripNotFound);
    }
  });

  it.each(['month=2026-13', 'month=2026-1', '', 'month=2026-11&with=abc', 'month=2026-11&extra=1'])('refuses the query %p (400)', async (query) => {
    const { month } = await newPilot();
    expect((await month(query)).statusCode).toBe(400);
  });

  it('is for a signed-in pilot only (401)', async () => {
    expect((await service.app.inject({ method: 'GET', url: '/api/pilot/month?month=2026-11' })).statusCode).toBe(401);
  });
});

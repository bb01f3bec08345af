import { randomUUID } from 'node:crypto';
import { AdminAnalytics, ComprehensiveAnalytics, PERMISSIONS, SwapBreakdown, type Pilot } from '@crewswap/proto';
import { adminCookie, makePilot, pilotCookie, registerPilot, startTestService, type TestService } from './helpers';

describe('admin analytics (Trip Analytics by Fleet & Rank)', () => {
  let service: TestService;

  async function pilotWith(overrides: Partial<Pilot>, trips: { offered?: boolean; training?: boolean; standby?: boolean }[]): Promise<Pilot> {
    const pilot = await registerPilot(service, makePilot({ base: 'LHR', testData: false, ...overrides }));
    for (const [i, trip] of trips.entries()) {
      await service.runtime.db('trips').insert({
        pilot_id: pilot.id,
        flight_no_start: 'VS003',
        flight_no_end: 'VS004',
        route: 'JFK',
        start_date: `2026-11-${String(10 + i * 3).padStart(2, '0')}`,
        end_date: `2026-11-${String(11 + i * 3).padStart(2, '0')}`,
        is_swappable: trip.offered === true,
        training: trip.training === true,
        is_standby: trip.standby === true,
      });
    }
    return pilot;
  }

  beforeAll(async () => {
    service = await startTestService();
    await pilotWith({ rank: 'CP', fleet: 'A330' }, [{ offered: true }, {}]);
    await pilotWith({ rank: 'CP', fleet: 'A330' }, []);
    await pilotWith({ rank: 'FO', fleet: 'A330' }, [{ offered: true, training: true }, { offered: true, standby: true }, {}]);
    await pilotWith({ rank: 'FO', fleet: 'B787', base: 'MAN', testData: true }, [{ offered: true }]);
    // A deleted pilot (kept as a tombstone in the directory) counts nowhere, nor do their trips.
    const gone = await pilotWith({ rank: 'CP', fleet: 'SFF' }, [{ offered: true }]);
    await service.runtime.db('pilots').where({ id: gone.id }).update({ deleted: true });
  });
  afterAll(async () => {
    await service.stop();
  });

  const get = (url: string, cookies: Record<string, string> = adminCookie(['view_analytics'])) => service.app.inject({ method: 'GET', url, cookies });
  const URLS = ['/api/admin/analytics', '/api/admin/analytics/comprehensive', '/api/admin/analytics/swap-breakdown'];

  it('needs view_analytics: 401 without a session or with a pilot session, 403 without it, 200 with it or as master admin', async () => {
    for (const url of URLS) {
      expect([url, (await get(url, {})).statusCode]).toEqual([url, 401]);
      expect([url, (await get(url, pilotCookie(randomUUID()))).statusCode]).toEqual([url, 401]);
      expect([url, (await get(url, adminCookie(PERMISSIONS.filter((p) => p !== 'view_analytics')))).statusCode]).toEqual([url, 403]);
      expect([url, (await get(url, adminCookie(['view_analytics']))).statusCode]).toEqual([url, 200]);
      expect([url, (await get(url, adminCookie([], true))).statusCode]).toEqual([url, 200]);
    }
  });

  it('answers pilots total, trips total and swap offers, one row per fleet with data in the spec order, and a TOTAL row', async () => {
    const response = await get('/api/admin/analytics');
    const analytics = AdminAnalytics.strict().parse(response.json());
    expect(analytics).toEqual({
      pilots: { total: 4 },
      trips: { total: 6, swapOffers: 4 },
      fleets: [
        {
          fleet: 'A330',
          CP: { pilotCount: 2, totalTrips: 2, swapOffers: 1 },
          FO: { pilotCount: 1, totalTrips: 3, swapOffers: 2 },
          fleetTrips: 5,
          fleetSwaps: 3,
        },
        {
          fleet: 'B787',
          CP: { pilotCount: 0, totalTrips: 0, swapOffers: 0 },
          FO: { pilotCount: 1, totalTrips: 1, swapOffers: 1 },
          fleetTrips: 1,
          fleetSwaps: 1,
        },
      ],
      total: {
        CP: { pilotCount: 2, totalTrips: 2, swapOffers: 1 },
        FO: { pilotCount: 2, totalTrips: 4, swapOffers: 3 },
        fleetTrips: 6,
        fleetSwaps: 4,
      },
    });
  });

  it('comprehensive adds the split by base and the test data', async () => {
    const analytics = ComprehensiveAnalytics.parse((await get('/api/admin/analytics/comprehensive')).json());
    expect(analytics.bases).toEqual([
      { base: 'LHR', pilotCount: 3, totalTrips: 5, swapOffers: 3 },
      { base: 'MAN', pilotCount: 1, totalTrips: 1, swapOffers: 1 },
    ]);
    expect(analytics.testData).toEqual({ pilotCount: 1, totalTrips: 1, swapOffers: 1 });
    expect(analytics.total.fleetTrips).toBe(6);
  });

  it('swap-breakdown counts the offered trips by fleet, rank, training and standby', async () => {
    expect(SwapBreakdown.parse((await get('/api/admin/analytics/swap-breakdown')).json())).toEqual({
      total: 4,
      training: 1,
      standby: 1,
      byFleet: { A330: 3, A350: 0, SFF: 0, B787: 1 },
      byRank: { CP: 1, FO: 3 },
    });
  });
});

import type { AdminAnalytics, Fleet, FleetAnalytics } from '@crewswap/proto';

export interface AnalyticsRow {
  fleet: Fleet | 'TOTAL';
  cpPilots: number;
  cpTrips: number;
  cpSwaps: number;
  foPilots: number;
  foTrips: number;
  foSwaps: number;
  fleetTrips: number;
  fleetSwaps: number;
}

const FLEET_ORDER: readonly Fleet[] = ['A330', 'A350', 'SFF', 'B787'];

function row(fleet: AnalyticsRow['fleet'], data: FleetAnalytics): AnalyticsRow {
  return {
    fleet,
    cpPilots: data.CP.pilotCount,
    cpTrips: data.CP.totalTrips,
    cpSwaps: data.CP.swapOffers,
    foPilots: data.FO.pilotCount,
    foTrips: data.FO.totalTrips,
    foSwaps: data.FO.swapOffers,
    fleetTrips: data.CP.totalTrips + data.FO.totalTrips,
    fleetSwaps: data.CP.swapOffers + data.FO.swapOffers,
  };
}

const isEmpty = (r: AnalyticsRow) => r.cpPilots + r.foPilots + r.fleetTrips + r.fleetSwaps === 0;

/**
 * The table's rows: fleets in the order A330, A350, SFF, B787, a fleet with no data skipped, then
 * a TOTAL row that sums every column of the rows shown. No fleet with data: no rows at all.
 */
export function analyticsRows(analytics: AdminAnalytics): AnalyticsRow[] {
  const fleets = FLEET_ORDER.flatMap((fleet) => {
    const data = analytics.fleets.find((entry) => entry.fleet === fleet);
    const shaped = data ? row(fleet, data) : undefined;
    return shaped && !isEmpty(shaped) ? [shaped] : [];
  });
  if (fleets.length === 0) return [];
  const total = fleets.reduce<AnalyticsRow>(
    (sum, r) => ({
      fleet: 'TOTAL',
      cpPilots: sum.cpPilots + r.cpPilots,
      cpTrips: sum.cpTrips + r.cpTrips,
      cpSwaps: sum.cpSwaps + r.cpSwaps,
      foPilots: sum.foPilots + r.foPilots,
      foTrips: sum.foTrips + r.foTrips,
      foSwaps: sum.foSwaps + r.foSwaps,
      fleetTrips: sum.fleetTrips + r.fleetTrips,
      fleetSwaps: sum.fleetSwaps + r.fleetSwaps,
    }),
    { fleet: 'TOTAL', cpPilots: 0, cpTrips: 0, cpSwaps: 0, foPilots: 0, foTrips: 0, foSwaps: 0, fleetTrips: 0, fleetSwaps: 0 },
  );
  return [...fleets, total];
}

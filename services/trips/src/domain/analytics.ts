import { BASES, FLEETS, RANKS, type AdminAnalytics, type ComprehensiveAnalytics, type FleetAnalytics, type RankAnalytics, type SwapBreakdown } from '@crewswap/proto';
import type { AnalyticsRepository, GroupCounts } from '../data/analytics';

const zero = (): RankAnalytics => ({ pilotCount: 0, totalTrips: 0, swapOffers: 0 });

function add(into: RankAnalytics, group: Pick<GroupCounts, 'pilotCount' | 'totalTrips' | 'swapOffers'>): void {
  into.pilotCount += group.pilotCount;
  into.totalTrips += group.totalTrips;
  into.swapOffers += group.swapOffers;
}

function fleetRow(groups: GroupCounts[]): FleetAnalytics {
  const ranks = { CP: zero(), FO: zero() };
  for (const group of groups) if ((RANKS as readonly string[]).includes(group.rank)) add(ranks[group.rank as 'CP' | 'FO'], group);
  return { ...ranks, fleetTrips: ranks.CP.totalTrips + ranks.FO.totalTrips, fleetSwaps: ranks.CP.swapOffers + ranks.FO.swapOffers };
}

function summarise(groups: GroupCounts[]): AdminAnalytics {
  const fleets = FLEETS.map((fleet) => ({ fleet, ...fleetRow(groups.filter((group) => group.fleet === fleet)) })).filter(
    (row) => row.CP.pilotCount + row.FO.pilotCount > 0,
  );
  const known = groups.filter((group) => (FLEETS as readonly string[]).includes(group.fleet));
  const total = fleetRow(known);
  return {
    pilots: { total: total.CP.pilotCount + total.FO.pilotCount },
    trips: { total: total.fleetTrips, swapOffers: total.fleetSwaps },
    fleets,
    total,
  };
}

/** The console's analytics, counted from trips' own data (its trips and its pilot directory). */
export function createAnalyticsService(repository: AnalyticsRepository) {
  return {
    overview: async (): Promise<AdminAnalytics> => summarise(await repository.groups()),

    async comprehensive(): Promise<ComprehensiveAnalytics> {
      const groups = await repository.groups();
      const sumOf = (selected: GroupCounts[]) => {
        const counts = zero();
        selected.forEach((group) => add(counts, group));
        return counts;
      };
      return {
        ...summarise(groups),
        bases: BASES.map((base) => ({ base, ...sumOf(groups.filter((group) => group.base === base)) })),
        testData: sumOf(groups.filter((group) => group.testData)),
      };
    },

    async swapBreakdown(): Promise<SwapBreakdown> {
      const rows = await repository.swaps();
      const byFleet = Object.fromEntries(FLEETS.map((fleet) => [fleet, 0])) as SwapBreakdown['byFleet'];
      const byRank = { CP: 0, FO: 0 };
      let total = 0;
      let training = 0;
      let standby = 0;
      for (const row of rows) {
        total += row.offers;
        training += row.training;
        standby += row.standby;
        if (row.fleet in byFleet) byFleet[row.fleet as keyof typeof byFleet] += row.offers;
        if (row.rank === 'CP' || row.rank === 'FO') byRank[row.rank] += row.offers;
      }
      return { total, training, standby, byFleet, byRank };
    },
  };
}
export type AnalyticsService = ReturnType<typeof createAnalyticsService>;

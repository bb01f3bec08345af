import type { Db } from '@crewswap/kit';

/** One group's counts: pilots, their trips, and those of the trips offered for swap. */
export interface GroupCounts {
  rank: string;
  fleet: string;
  base: string;
  testData: boolean;
  pilotCount: number;
  totalTrips: number;
  swapOffers: number;
}

export interface SwapCounts {
  rank: string;
  fleet: string;
  offers: number;
  training: number;
  standby: number;
}

export type AnalyticsRepository = ReturnType<typeof createAnalyticsRepository>;

/** Counts over the pilot directory (live pilots only) and their trips, grouped in SQL. */
export function createAnalyticsRepository(db: Db) {
  return {
    async groups(): Promise<GroupCounts[]> {
      const rows: { rank: string; fleet: string; base: string; test_data: boolean; pilots: string; trips: string; offers: string }[] = await db
        .with('per_pilot', (q) =>
          q
            .from('pilots as p')
            .leftJoin('trips as t', 't.pilot_id', 'p.id')
            .where('p.deleted', false)
            .groupBy('p.id')
            .select('p.id', 'p.rank', 'p.fleet', 'p.base', 'p.test_data')
            .count({ trips: 't.id' })
            .select(db.raw('count(t.id) filter (where t.is_swappable) as offers')),
        )
        .from('per_pilot')
        .groupBy('rank', 'fleet', 'base', 'test_data')
        .select('rank', 'fleet', 'base', 'test_data')
        .count({ pilots: '*' })
        .sum({ trips: 'trips' })
        .sum({ offers: 'offers' });
      return rows.map((row) => ({
        rank: row.rank,
        fleet: row.fleet,
        base: row.base,
        testData: row.test_data,
        pilotCount: Number(row.pilots),
        totalTrips: Number(row.trips ?? 0),
        swapOffers: Number(row.offers ?? 0),
      }));
    },

    async swaps(): Promise<SwapCounts[]> {
      const rows: { rank: string; fleet: string; offers: string; training: string; standby: string }[] = await db('trips as t')
        .join('pilots as p', 'p.id', 't.pilot_id')
        .where({ 'p.deleted': false, 't.is_swappable': true })
        .groupBy('p.rank', 'p.fleet')
        .select('p.rank', 'p.fleet')
        .count({ offers: '*' })
        .select(db.raw('count(*) filter (where t.training) as training'), db.raw('count(*) filter (where t.is_standby) as standby'));
      return rows.map((row) => ({ rank: row.rank, fleet: row.fleet, offers: Number(row.offers), training: Number(row.training), standby: Number(row.standby) }));
    },
  };
}

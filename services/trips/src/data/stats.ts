import type { Db, Executor } from '@crewswap/kit';

export interface OwnTripCounts {
  total: number;
  upcoming: number;
  offered: number;
  kept: number;
  standby: number;
  uploaded: number;
  nextTripDate: string | null;
}

export interface CommunityCounts {
  pilots: number;
  masterRosterPilots: number;
  upcomingTrips: number;
  offeredTrips: number;
}

/** Counts for `GET /api/stats`; "upcoming" means not ended by `today`. */
export function createStatsRepository(db: Db) {
  return {
    async own(pilotId: string, today: string, trx: Executor = db): Promise<OwnTripCounts> {
      const { rows } = (await trx.raw(
        `SELECT count(*)::int AS total,
                count(*) FILTER (WHERE end_date >= :today)::int AS upcoming,
                count(*) FILTER (WHERE is_swappable AND end_date >= :today)::int AS offered,
                count(*) FILTER (WHERE requested AND end_date >= :today)::int AS kept,
                count(*) FILTER (WHERE is_standby)::int AS standby,
                count(*) FILTER (WHERE source <> 'manual')::int AS uploaded,
                min(start_date) FILTER (WHERE start_date >= :today) AS next_trip_date
         FROM trips WHERE pilot_id = :pilotId`,
        { pilotId, today },
      )) as { rows: (Omit<OwnTripCounts, 'nextTripDate'> & { next_trip_date: string | null })[] };
      const { next_trip_date: nextTripDate, ...counts } = rows[0]!;
      return { ...counts, nextTripDate };
    },

    async community(today: string, trx: Executor = db): Promise<CommunityCounts> {
      const { rows } = (await trx.raw(
        `SELECT (SELECT count(*) FROM pilots WHERE NOT deleted)::int AS pilots,
                (SELECT count(*) FROM pilots WHERE NOT deleted AND usual_req)::int AS master_roster_pilots,
                (SELECT count(*) FROM trips WHERE end_date >= :today)::int AS upcoming_trips,
                (SELECT count(*) FROM trips WHERE is_swappable AND start_date >= :today)::int AS offered_trips`,
        { today },
      )) as { rows: { pilots: number; master_roster_pilots: number; upcoming_trips: number; offered_trips: number }[] };
      const row = rows[0]!;
      return { pilots: row.pilots, masterRosterPilots: row.master_roster_pilots, upcomingTrips: row.upcoming_trips, offeredTrips: row.offered_trips };
    },
  };
}
export type StatsRepository = ReturnType<typeof createStatsRepository>;

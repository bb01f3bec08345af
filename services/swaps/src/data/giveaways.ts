import type { Db, Executor } from '@crewswap/kit';
import type { Giveaway } from '@crewswap/proto';
import type { Constraint, DayRange } from '../rules/swap-rule';
import { TRIP_SIDE } from './proposals';
import { toPilotRecord, type PilotRecord, type PilotRowOut } from './read-model';
import { constraintSql } from './swap-rule-sql';

/** A page of Pick up a trip is at most this long (the window is a few weeks of one rank and fleet). */
export const MAX_GIVEAWAYS = 200;

/** Pick up a trip (issue 53): give-away offers, read from the read model as Find swaps' SQL fallback reads offers. */
export function createGiveawayRepository(db: Db) {
  return {
    /** The pilot (undefined until known with a profile) and the days of every live trip they hold. */
    async picker(pilotId: string, ex: Executor = db): Promise<{ record: PilotRecord | undefined; trips: DayRange[] }> {
      const result = await ex.raw<{ rows: (PilotRowOut & { trips: [string, string][] })[] }>(
        `SELECT p.id, p.rank, p.fleet, p.ltc, p.search_day_range, p.deleted, p.contact,
                (SELECT COALESCE(json_agg(json_build_array(x.start_date, x.end_date) ORDER BY x.start_date, x.id), '[]')
                   FROM trips x
                  WHERE x.pilot_id = p.id AND NOT x.deleted AND x.start_date IS NOT NULL AND x.end_date IS NOT NULL) AS trips
           FROM pilots p
          WHERE p.id = ?`,
        [pilotId],
      );
      const row = result.rows[0];
      return { record: row && toPilotRecord(row), trips: (row?.trips ?? []).map(([from, to]) => ({ from, to })) };
    },

    /**
     * Offers of type 'giveaway' or 'either' that `fits` allows (GIVEAWAY_RULE, from the picker's
     * side), starting after `today`, not already in an agreed swap, of a pilot not deleted: by start date.
     */
    async list(fits: Constraint, today: string, ex: Executor = db): Promise<Giveaway[]> {
      const rule = constraintSql(TRIP_SIDE, fits);
      const result = await ex.raw<{ rows: Giveaway[] }>(
        `SELECT t.data AS trip, p.contact AS owner
           FROM trips t
           JOIN pilots p ON p.id = t.pilot_id
          WHERE t.is_swappable AND NOT t.deleted AND t.offer_type <> 'swap'
            AND t.start_date > CAST(:today AS date)
            AND NOT p.deleted AND p.contact IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM agreement_trips a WHERE a.trip_id = t.id)
            AND ${rule.where}
          ORDER BY t.start_date, t.end_date, t.id
          LIMIT ${MAX_GIVEAWAYS}`,
        { ...rule.bindings, today },
      );
      return result.rows;
    },
  };
}
export type GiveawayRepository = ReturnType<typeof createGiveawayRepository>;

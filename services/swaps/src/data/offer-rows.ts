import type { Executor } from '@crewswap/kit';
import { PilotContact, SwapMatchPilot, SwapMatchTrip, Trip } from '@crewswap/proto';
import { ltcCaptainSql } from './swap-rule-sql';

/** A text[] literal of the keys of `all` that `shown` leaves out. */
function keysLeftOut(all: readonly string[], shown: readonly string[]): string {
  return `'{${all.filter((key) => !shown.includes(key)).join(',')}}'::text[]`;
}
// Find swaps answers SwapMatch: the stored trip and contact less what the app does not show.
const TRIP_FIELDS_NOT_SHOWN = keysLeftOut(Object.keys(Trip.shape), Object.keys(SwapMatchTrip.shape));
const PILOT_FIELDS_NOT_SHOWN = keysLeftOut(Object.keys(PilotContact.shape), Object.keys(SwapMatchPilot.shape));

/**
 * The owner's other live trips (standby duties included), as day numbers since 1970-01-01 in
 * pairs [from, to, from, to, ...]: what Mutual asks of the owner, held in memory by the offer index.
 */
const OTHER_TRIP_DAYS_SQL = `(SELECT COALESCE(array_agg(d.day ORDER BY x.id, d.n), '{}')
            FROM trips x CROSS JOIN LATERAL (VALUES (0, x.start_date - DATE '1970-01-01'), (1, x.end_date - DATE '1970-01-01')) AS d(n, day)
           WHERE x.pilot_id = t.pilot_id AND NOT x.deleted AND x.id <> t.id AND x.start_date IS NOT NULL AND x.end_date IS NOT NULL)`;

/**
 * The offer rows of the read model, derived from trips and pilots: every live offer (swappable,
 * not standby, with an aircraft) of a pilot known with a profile. A deleted pilot's offers stay,
 * as they do on the trips table. Callers append `AND ...` to narrow it.
 */
export const OFFER_ROWS_SQL = offerRowsSql('');

/** OFFER_ROWS_SQL with more columns of `t` after its own (migration 0007 runs it as it was then). */
function offerRowsSql(more: string): string {
  return `
  SELECT t.id, t.pilot_id, p.rank, p.fleet, ${ltcCaptainSql('p')}, t.aircraft, t.start_date, t.end_date, t.training,
         (t.data - ${TRIP_FIELDS_NOT_SHOWN})::text, (p.contact - ${PILOT_FIELDS_NOT_SHOWN})::text,
         t.search_start_date, t.search_end_date, p.search_day_range, ${OTHER_TRIP_DAYS_SQL}${more}
    FROM trips t
    JOIN pilots p ON p.id = t.pilot_id
   WHERE t.is_swappable AND NOT t.deleted AND NOT t.is_standby AND t.aircraft IS NOT NULL
     AND p.contact IS NOT NULL AND p.rank IS NOT NULL AND p.fleet IS NOT NULL`;
}

/**
 * Find swaps shows swap offers only: a trip offered as a give-away alone is found by Pick up a
 * trip (data/giveaways.ts), not offered for a trip in return (issue 53). Apart from
 * OFFER_ROWS_SQL, which migration 0007 ran before trips had an offer type.
 */
export const SWAP_OFFERS = "t.offer_type <> 'giveaway'";

export const OFFER_COLUMNS =
  '(trip_id, pilot_id, rank, fleet, ltc_captain, aircraft, start_date, end_date, training, trip_json, pilot_json, search_start_date, search_end_date, day_range, other_trip_days)';

/**
 * An offer's duty times (issue 55, migration 0015): Find swaps checks each offer against the
 * asker's roster (legality) and sorts by block; the offer index holds them in memory.
 */
const OFFER_TIME_COLUMNS = 'report_at, release_at, sectors, block_minutes, flight_no_start';
const OFFER_ROWS_WITH_TIMES_SQL = offerRowsSql(", t.report_at, t.release_at, t.sectors, t.block_minutes, t.data->>'flightNoStart'");
const OFFER_COLUMNS_WITH_TIMES = `${OFFER_COLUMNS.slice(0, -1)}, ${OFFER_TIME_COLUMNS})`;

/**
 * Rewrites the offer rows of the given trips and of every trip of the given pilots from what the
 * trips and pilots tables now hold, in the caller's transaction: a trip that stops being offered
 * loses its row, a pilot whose rank, fleet, LTC, day range or contact changes has all their rows
 * rewritten, and so does a pilot any of whose trips changes (their offers hold the other trips' days).
 */
// The trips asked for, found by their indexes: an OR across the two columns read every offered
// trip, and a pilot's offered trips are those of the partial index trips_offers_by_pilot.
const TRIPS_OF_SCOPE =
  'SELECT id FROM trips WHERE id = ANY(?::uuid[]) UNION SELECT id FROM trips WHERE pilot_id = ANY(?::uuid[]) AND is_swappable AND NOT deleted AND NOT is_standby';

export async function refreshOffers(ex: Executor, scope: { tripIds?: string[]; pilotIds?: string[] }): Promise<void> {
  const tripIds = scope.tripIds ?? [];
  const pilotIds = scope.pilotIds ?? [];
  if (tripIds.length === 0 && pilotIds.length === 0) return;
  await ex.raw('DELETE FROM offers WHERE trip_id = ANY(?::uuid[]) OR pilot_id = ANY(?::uuid[])', [tripIds, pilotIds]);
  await ex.raw(`INSERT INTO offers ${OFFER_COLUMNS_WITH_TIMES} ${OFFER_ROWS_WITH_TIMES_SQL} AND ${SWAP_OFFERS} AND t.id IN (${TRIPS_OF_SCOPE}) ON CONFLICT (trip_id) DO NOTHING`, [
    tripIds,
    pilotIds,
  ]);
}

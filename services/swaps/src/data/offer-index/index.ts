import type { Db } from '@crewswap/kit';
import type { Logger } from 'pino';
import { mutualOffersFor, offersFor } from '../../rules/swap-rule';
import type { OfferQuery } from '../read-model';
import { writeAnswer, type FoundAnswer } from './answer';
import { createBuckets, dayNumber, type OfferRow } from './buckets';
import { createKeptOrders } from './kept-orders';
import { startListener } from './listener';
import { instantSql } from '../swap-rule-sql';

export { OFFERS_CHANNEL, RELOAD_ALL } from './listener';
export type { FoundAnswer } from './answer';

const OFFER_SELECT = `SELECT trip_id, pilot_id, rank, fleet, aircraft, start_date::text AS start_date, end_date::text AS end_date,
                             training, ltc_captain, trip_json, pilot_json, search_start_date::text AS search_start_date,
                             search_end_date::text AS search_end_date, day_range, other_trip_days,
                             ${instantSql('report_at')} AS report_at, ${instantSql('release_at')} AS release_at, sectors, block_minutes, flight_no_start
                        FROM offers`;

export interface OfferIndex {
  /**
   * The Find swaps answer (the JSON text of SwapMatch[], or of a SwapMatchPage when the query
   * asks for a page) from memory, exactly as the offers query gives it, with the ids of the
   * offers it shows; or undefined while the index is not in step with the table (starting, or its
   * listening connection lost): the caller then asks Postgres.
   */
  find(query: OfferQuery): FoundAnswer | undefined;
  /**
   * Settles once every change committed before the call is in the index (a barrier through the
   * same channel: Postgres delivers notices in commit order). At once when the index is not in use.
   */
  catchUp(): Promise<void>;
  /** Offers held, and whether the index answers. */
  status(): { offers: number; ready: boolean };
  close(): Promise<void>;
}

/**
 * The offers table held in memory: Find swaps is the hot read of the product, and answering it
 * from memory costs a binary search and a copy of rows already in UTF-8, where the query
 * aggregated hundreds of rows into text for the driver to decode and the server to encode again
 * (`npm run bench -w @crewswap/swaps`). Four parts: the listener keeps it in step with the table
 * (Postgres stays the truth), the buckets hold the offers and find the swap rule's rows, the kept
 * orders hold each search's rows merged in date order until the offers change, and the answer
 * writer puts them in the answer's order and bytes.
 */
export async function startOfferIndex(deps: { db: Db; connectionString: string; log: Logger; heartbeatMs?: number }): Promise<OfferIndex> {
  const { db } = deps;
  const buckets = createBuckets();
  const keptOrders = createKeptOrders(buckets);
  const listener = await startListener({
    ...deps,
    follower: {
      async reloadAll() {
        const { rows } = await db.raw<{ rows: OfferRow[] }>(`${OFFER_SELECT} ORDER BY start_date, end_date, trip_id`);
        buckets.clear();
        for (const row of rows) buckets.put(row);
      },
      async reread(tripIds) {
        const { rows } = await db.raw<{ rows: OfferRow[] }>(`${OFFER_SELECT} WHERE trip_id = ANY(?::uuid[])`, [tripIds]);
        for (const id of tripIds) buckets.remove(id);
        for (const row of rows) buckets.put(row);
      },
      size: buckets.size,
    },
  });

  return {
    find(query) {
      if (!listener.ready()) return undefined;
      const order = keptOrders.of(offersFor(query), { start: query.trip.startDate, end: query.trip.endDate, urgentFrom: query.urgent.from, urgentTo: query.urgent.to });
      return writeAnswer(order, {
        searchedTripId: query.trip.id,
        start: dayNumber(query.trip.startDate),
        end: dayNumber(query.trip.endDate),
        urgentFrom: dayNumber(query.urgent.from),
        urgentTo: dayNumber(query.urgent.to),
        mutual: buckets.rowTest(mutualOffersFor(query), query.settingDays),
        page: query.page,
        sort: query.sort,
        checks: query.checks,
      });
    },
    catchUp: () => listener.catchUp(),
    status: () => ({ offers: buckets.size(), ready: listener.ready() }),
    close: () => listener.close(),
  };
}

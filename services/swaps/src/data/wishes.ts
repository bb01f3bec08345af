import { randomUUID } from 'node:crypto';
import { fromRow, type Db, type Executor } from '@crewswap/kit';
import type { Trip, WishBody } from '@crewswap/proto';
import { askersOf } from '../rules/swap-rule';
import { airportsOf } from '../rules/wish-match';
import { ASKER_SIDE, type RecipientQuery } from './read-model';
import { constraintSql } from './swap-rule-sql';

export interface StoredWish {
  id: string;
  pilotId: string;
  destinations: string[];
  startDate: string | null;
  endDate: string | null;
  forTripId: string | null;
  createdAt: string;
}

interface WishRow {
  id: string;
  pilot_id: string;
  destinations: string[];
  start_date: string | null;
  end_date: string | null;
  for_trip_id: string | null;
  created_at: Date;
}

const toWish = (row: WishRow): StoredWish => ({
  ...fromRow(row, ['id', 'pilot_id', 'destinations', 'for_trip_id']),
  startDate: row.start_date,
  endDate: row.end_date,
  createdAt: row.created_at.toISOString(),
});

/** wishAccepts in SQL, over a wish row and the offer's airports (airportsOf) and start date (SQL expressions). */
export function wishAcceptsSql(wish: string, airports: string, offerStart: string): string {
  return `${wish}.destinations && ${airports}
            AND (${wish}.start_date IS NULL OR ${wish}.start_date <= ${offerStart})
            AND (${wish}.end_date IS NULL OR ${wish}.end_date >= ${offerStart})`;
}

/** Wishes: each pilot's own (at most MAX_WISHES), and the reverse question of a new offer. */
export function createWishRepository(db: Db) {
  const columns = ['id', 'pilot_id', 'destinations', db.raw("to_char(start_date, 'YYYY-MM-DD') AS start_date"), db.raw("to_char(end_date, 'YYYY-MM-DD') AS end_date"), 'for_trip_id', 'created_at'];
  return {
    async list(pilotId: string, ex: Executor = db): Promise<StoredWish[]> {
      const rows: WishRow[] = await ex('wishes').where({ pilot_id: pilotId }).select(columns).orderBy(['created_at', 'id']);
      return rows.map(toWish);
    },

    async find(pilotId: string, id: string, ex: Executor = db): Promise<StoredWish | undefined> {
      const row: WishRow | undefined = await ex('wishes').where({ pilot_id: pilotId, id }).first(columns);
      return row && toWish(row);
    },

    /** Counted under a lock on the pilot's wishes, so two saves at once cannot make eleven. */
    async countForUpdate(pilotId: string, ex: Executor): Promise<number> {
      await ex.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`wishes:${pilotId}`]);
      const row = await ex('wishes').where({ pilot_id: pilotId }).count({ n: '*' }).first();
      return Number(row?.n ?? 0);
    },

    async insert(pilotId: string, wish: WishBody, at: Date, ex: Executor = db): Promise<StoredWish> {
      const [row]: WishRow[] = await ex('wishes').insert({ id: randomUUID(), pilot_id: pilotId, ...wishColumns(wish), created_at: at }).returning(columns);
      return toWish(row!);
    },

    async update(pilotId: string, id: string, wish: WishBody, ex: Executor = db): Promise<StoredWish | undefined> {
      const [row]: WishRow[] = await ex('wishes').where({ pilot_id: pilotId, id }).update(wishColumns(wish)).returning(columns);
      return row && toWish(row);
    },

    async byIds(ids: string[], ex: Executor = db): Promise<StoredWish[]> {
      const rows: WishRow[] = await ex('wishes').whereRaw('id = ANY(?::uuid[])', [ids]).select(columns);
      return rows.map(toWish);
    },

    async remove(pilotId: string, id: string, ex: Executor = db): Promise<boolean> {
      return (await ex('wishes').where({ pilot_id: pilotId, id }).delete()) > 0;
    },

    /**
     * The wishes a new offer answers, one per pilot (their oldest): the wish's destinations and
     * dates, and the swap rule between the offer and one of the pilot's trips (the wish's own
     * trip when it names one), exactly as the swap alerts' recipients are found.
     */
    async findAnswered(query: RecipientQuery, ex: Executor = db): Promise<StoredWish[]> {
      const rule = constraintSql(ASKER_SIDE, askersOf(query));
      const result = await ex.raw<{ rows: WishRow[] }>(
        `SELECT DISTINCT ON (w.pilot_id) w.id, w.pilot_id, w.destinations, to_char(w.start_date, 'YYYY-MM-DD') AS start_date,
                to_char(w.end_date, 'YYYY-MM-DD') AS end_date, w.for_trip_id, w.created_at
           FROM wishes w
           JOIN trips t ON t.pilot_id = w.pilot_id AND (w.for_trip_id IS NULL OR t.id = w.for_trip_id)
           JOIN pilots r ON r.id = t.pilot_id
          WHERE ${wishAcceptsSql('w', 'CAST(:airports AS text[])', 'CAST(:offer_start AS date)')}
            AND NOT t.deleted
            AND NOT r.deleted AND r.contact IS NOT NULL
            AND ${rule.where}
          ORDER BY w.pilot_id, w.created_at, w.id`,
        { ...rule.bindings, days: query.settingDays, airports: airportsOf(query.offer.route), offer_start: query.offer.startDate },
      );
      return result.rows.map(toWish);
    },

    /** A pilot's live trips from a date on, the trips a wish can be answered for. */
    async liveTripsOf(pilotId: string, from: string, ex: Executor = db): Promise<Trip[]> {
      const rows: { data: Trip }[] = await ex('trips')
        .where({ pilot_id: pilotId, deleted: false, is_standby: false })
        .andWhere('start_date', '>=', from)
        .orderBy(['start_date', 'id'])
        .select('data');
      return rows.map((row) => row.data);
    },
  };
}
export type WishRepository = ReturnType<typeof createWishRepository>;

function wishColumns(wish: WishBody) {
  return {
    destinations: [...new Set(wish.destinations)],
    start_date: wish.startDate ?? null,
    end_date: wish.endDate ?? null,
    for_trip_id: wish.forTripId ?? null,
  };
}

import type { Db, Executor } from '@crewswap/kit';
import type { DigestPreference, PilotContact, Trip } from '@crewswap/proto';
import { SWAP_RULE } from '../rules/swap-rule';
import { airportsOf } from '../rules/wish-match';
import { ASKER_SIDE } from './read-model';
import { ltcCaptainSql, offerRowColumns, ruleJoinSql, type SideColumns } from './swap-rule-sql';
import { wishAcceptsSql } from './wishes';

export interface DigestReader {
  pilotId: string;
  digest: DigestPreference;
  lastDigestAt: Date | null;
  contact: PilotContact;
}

/** What the daily digest reads: who wants it, the offers made since, and whose trips they suit. */
export function createDigestRepository(db: Db) {
  return {
    /** Pilots with the digest on, not sent it in the last `gapHours`. */
    async readers(notSince: Date, ex: Executor = db): Promise<DigestReader[]> {
      const { rows } = await ex.raw<{ rows: { pilot_id: string; digest: DigestPreference; last_digest_at: Date | null; contact: PilotContact }[] }>(
        `SELECT ap.pilot_id, ap.digest, ap.last_digest_at, p.contact
           FROM alert_preferences ap JOIN pilots p ON p.id = ap.pilot_id
          WHERE ap.digest IS NOT NULL AND NOT p.deleted AND p.contact IS NOT NULL
            AND (ap.last_digest_at IS NULL OR ap.last_digest_at < ?)`,
        [notSince],
      );
      return rows.map((row) => ({ pilotId: row.pilot_id, digest: row.digest, lastDigestAt: row.last_digest_at, contact: row.contact }));
    },

    /** Offers (live, not started) whose last change is after `since`, with when that was. */
    async offersSince(since: Date, today: string, ex: Executor = db): Promise<{ offer: Trip; at: Date }[]> {
      const rows: { data: Trip; event_at: Date }[] = await ex('trips')
        .where({ is_swappable: true, deleted: false, is_standby: false })
        .andWhere('event_at', '>', since)
        .andWhere('start_date', '>=', today)
        .orderBy(['start_date', 'id'])
        .select('data', 'event_at');
      return rows.map((row) => ({ offer: row.data, at: row.event_at }));
    },

    /**
     * For each reader and each offer made since their last digest, what the digest lists it under:
     * the reader's earliest upcoming trip it suits by the swap rule (the trip's own window), else
     * their oldest wish it answers (with any of their trips, or the wish's own). One statement for
     * all offers and readers, the rule as a join (ruleJoinSql); each reader's offers in the order given.
     */
    async found(query: DigestQuery): Promise<DigestItem[]> {
      if (query.offers.length === 0 || query.readers.length === 0) return [];
      const offers = query.offers.map(({ offer, at }, ord) => ({ ord, id: offer.id, at: at.toISOString(), airports: airportsOf(offer.route) }));
      const { rows } = await db.transaction(async (trx) => {
        // The planner cannot tell how many pairs the rule joins (about two a reader and offer at
        // airline scale, millions in all) and would look each up in a loop: hash joins and sorts
        // in memory instead, for this statement alone.
        await trx.raw("SET LOCAL enable_nestloop = off; SET LOCAL work_mem = '64MB'");
        return trx.raw<{ rows: { pilot_id: string; items: [number, string | null, string | null][] }[] }>(FOUND_SQL, {
          offers: JSON.stringify(offers),
          readers: query.readers.map((reader) => reader.pilotId),
          since: query.readers.map((reader) => reader.since),
          today: query.today,
          days: query.settingDays,
        });
      });
      return rows.flatMap((row) => row.items.map(([ord, tripId, wishId]) => ({ pilotId: row.pilot_id, offerId: offers[ord]!.id, tripId, wishId })));
    },

    /**
     * Marks the pilots' digest sent at `at`, unless one was sent after `notSince` meanwhile, and
     * answers whom it marked: only they are mailed, in the same transaction. Another replica's run
     * that got there first holds their rows until it commits; this one then finds them sent.
     */
    async claim(pilotIds: string[], at: Date, notSince: Date, ex: Executor): Promise<Set<string>> {
      const rows = await ex('alert_preferences')
        .whereIn('pilot_id', pilotIds)
        .where((unsent) => unsent.whereNull('last_digest_at').orWhere('last_digest_at', '<', notSince))
        .update({ last_digest_at: at })
        .returning<{ pilot_id: string }[]>('pilot_id');
      return new Set(rows.map((row) => row.pilot_id));
    },
  };
}
export type DigestRepository = ReturnType<typeof createDigestRepository>;

export interface DigestQuery {
  /** The offers, in the order each reader's items keep, with when each was last changed. */
  offers: { offer: Trip; at: Date }[];
  /** Who is due, and since when an offer is new to them. */
  readers: { pilotId: string; since: Date }[];
  today: string;
  settingDays: number;
}

/** One offer in one reader's digest: under their trip, or else their wish. */
export interface DigestItem {
  pilotId: string;
  offerId: string;
  tripId: string | null;
  wishId: string | null;
}

/** The new offers (the `offer` rows below) as the swap rule reads an offer, its owner's profile beside it. */
const NEW_OFFER_SIDE: SideColumns = offerRowColumns('o', { standby: 'o.is_standby' });

/**
 * `pair` is every (reader's live trip, offer new to them) the rule joins; from it, each reader's
 * earliest upcoming trip per offer and, where there is none, their oldest wish the offer answers
 * with one of the paired trips. Answered one row a reader, their items in the offers' order.
 */
const FOUND_SQL = `
  WITH o AS MATERIALIZED (
    SELECT n.ord, n.at, n.airports, x.id, x.pilot_id, x.aircraft, x.training, x.is_standby, x.start_date, x.end_date,
           op.rank, op.fleet, ${ltcCaptainSql('op')} AS ltc_captain
      FROM jsonb_to_recordset(CAST(:offers AS jsonb)) AS n(ord int, id uuid, at timestamptz, airports text[])
      JOIN trips x ON x.id = n.id
      -- As findPilot: an owner known with a profile, deleted or not.
      JOIN pilots op ON op.id = x.pilot_id AND op.contact IS NOT NULL
  ), pair AS MATERIALIZED (
    SELECT t.pilot_id, t.id AS trip_id, t.start_date AS trip_start, o.ord, o.airports, o.start_date AS offer_start
      FROM unnest(CAST(:readers AS uuid[]), CAST(:since AS timestamptz[])) AS reader(pilot_id, since)
      JOIN pilots r ON r.id = reader.pilot_id
      JOIN trips t ON t.pilot_id = r.id
      JOIN o ON o.at > reader.since
     WHERE NOT t.deleted AND NOT r.deleted AND r.contact IS NOT NULL
       AND ${ruleJoinSql(SWAP_RULE, { asker: ASKER_SIDE, offer: NEW_OFFER_SIDE })}
  ), by_trip AS (
    SELECT DISTINCT ON (pilot_id, ord) pilot_id, ord, trip_id
      FROM pair
     WHERE trip_start >= CAST(:today AS date)
     ORDER BY pilot_id, ord, trip_start, trip_id
  ), by_wish AS (
    SELECT DISTINCT ON (pair.pilot_id, pair.ord) pair.pilot_id, pair.ord, w.id AS wish_id
      FROM pair
      JOIN wishes w ON w.pilot_id = pair.pilot_id AND (w.for_trip_id IS NULL OR w.for_trip_id = pair.trip_id)
     WHERE ${wishAcceptsSql('w', 'pair.airports', 'pair.offer_start')}
     ORDER BY pair.pilot_id, pair.ord, w.created_at, w.id
  )
  SELECT pilot_id, json_agg(json_build_array(ord, trip_id, CASE WHEN trip_id IS NULL THEN wish_id END) ORDER BY ord) AS items
    FROM by_trip FULL JOIN by_wish USING (pilot_id, ord)
   GROUP BY pilot_id`;

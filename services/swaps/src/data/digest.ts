import type { Db, Executor } from '@crewswap/kit';
import type { DigestPreference, PilotContact, Trip } from '@crewswap/proto';
import { askersOf } from '../domain/swap-rule';
import { ASKER_SIDE, type RecipientQuery } from './read-model';
import { constraintSql } from './swap-rule-sql';

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

    /** Every (pilot, trip) the offer suits by the swap rule: findRecipients' question, each trip named. */
    async askerTrips(query: RecipientQuery, ex: Executor = db): Promise<{ pilotId: string; trip: Trip }[]> {
      const rule = constraintSql(ASKER_SIDE, askersOf(query));
      const { rows } = await ex.raw<{ rows: { pilot_id: string; data: Trip }[] }>(
        `SELECT t.pilot_id, t.data
           FROM trips t JOIN pilots r ON r.id = t.pilot_id
          WHERE NOT t.deleted AND NOT r.deleted AND r.contact IS NOT NULL AND ${rule.where}`,
        { ...rule.bindings, days: query.settingDays },
      );
      return rows.map((row) => ({ pilotId: row.pilot_id, trip: row.data }));
    },

    async markSent(pilotIds: string[], at: Date, ex: Executor): Promise<void> {
      await ex('alert_preferences').whereIn('pilot_id', pilotIds).update({ last_digest_at: at });
    },
  };
}
export type DigestRepository = ReturnType<typeof createDigestRepository>;

import { fromRow, type Db, type Executor } from '@crewswap/kit';
import { parseFlightTimeLimits, parseSwapSearchDays, PilotContact, Trip, type FlightTimeLimits, type MatchSort, type TripTimes, type SwapWindow as Window, type DigestPreference, type Fleet, type Pilot, type Rank } from '@crewswap/proto';
import { refreshOffers } from './offer-rows';
import { askersOf, mutualOffersFor, offersFor, type DayRange } from '../rules/swap-rule';
import { answerWrapping, type MatchKey, type MatchPage } from '../rules/match-page';
import { constraintSql, instantSql, ltcCaptainSql, offerRowColumns, type SideColumns } from './swap-rule-sql';

/** When an event happened, in the order events of one aggregate are applied: version, then time. */
export interface Stamp {
  version: number;
  at: Date;
}

export function stampOf(event: { version: number; occurredAt: string }): Stamp {
  const at = new Date(event.occurredAt);
  // An event without a readable time still applies, but never over anything that has one.
  return { version: event.version, at: Number.isNaN(at.getTime()) ? new Date(0) : at };
}

export function isNewerOrSame(a: Stamp, b: Stamp): boolean {
  return a.version !== b.version ? a.version > b.version : a.at.getTime() >= b.at.getTime();
}

export type PilotChange = { kind: 'profile'; pilot: Pilot; stamp: Stamp } | { kind: 'deleted'; pilotId: string; stamp: Stamp };
export type TripChange = { kind: 'trip'; trip: Trip; stamp: Stamp } | { kind: 'deleted'; tripId: string; pilotId: string; stamp: Stamp };

export interface PilotRecord {
  id: string;
  rank: Rank;
  fleet: Fleet;
  ltc: boolean;
  searchDayRange: number | null;
  deleted: boolean;
  contact: PilotContact;
}

export interface OfferQuery {
  asker: { id: string; rank: Rank; fleet: Fleet; ltc: boolean };
  trip: Trip;
  window: Window;
  /** The days of the asker's other trips, for Mutual. */
  askerOtherTrips: DayRange[];
  /** swap_search_days: an offer's own window (Mutual) where neither its range nor its owner's day range is set. */
  settingDays: number;
  /** The start dates that are Urgent now (urgentDates). */
  urgent: DayRange;
  page: MatchPage;
  /** The answer's order: relevance unless asked (issue 55). */
  sort?: MatchSort;
  checks?: OfferChecks;
}

/**
 * The flight time limitations checks of one Find swaps request (issue 55), worked out by the
 * caller against the asker's roster: asked of the rows an answer needs only.
 */
export interface OfferChecks {
  /** Whether an offer the swap rule finds Mutual stays Mutual: legal both ways where known. */
  stillMutual(offer: TripTimes, ownerId: string): boolean;
  /** Whether to leave the offer out (legalOnly); absent: none is. */
  hidden?: (offer: TripTimes) => boolean;
  /** The JSON text that ends the offer's row (its legal and reasons). */
  rowEnd(offer: TripTimes): string;
}

export interface RecipientQuery {
  owner: { id: string; rank: Rank; fleet: Fleet; ltc: boolean };
  offer: Trip;
  settingDays: number;
}

export interface Recipient {
  pilotId: string;
  /** The recipient's trip the offer would swap with (the earliest, if several). */
  tripId: string;
}

export interface PilotRowOut {
  id: string;
  rank: Rank | null;
  fleet: Fleet | null;
  ltc: boolean;
  search_day_range: number | null;
  deleted: boolean;
  contact: PilotContact | null;
}

const PILOT_PROFILE_COLUMNS = ['rank', 'fleet', 'ltc', 'search_day_range', 'contact'] as const;
const TRIP_COLUMNS = [
  'pilot_id',
  'aircraft',
  'start_date',
  'end_date',
  'is_swappable',
  'offer_type',
  'training',
  'is_standby',
  'search_start_date',
  'search_end_date',
  'deleted',
  'data',
  'report_at',
  'release_at',
  'sectors',
  'block_minutes',
] as const;
const NEWER_OR_SAME = (table: string) => `(${table}.event_version, ${table}.event_at) <= (excluded.event_version, excluded.event_at)`;

/** The matching engine's read model: pilots, trips, the swap window setting. SQL lives only here. */
export function createReadModelRepository(db: Db) {
  return {
    /**
     * Applies pilot events in order; each pilot's row ends as the newest event leaves it, whatever
     * order the rows already written came in. Returns the ids whose row changed.
     */
    async applyPilotChanges(ex: Executor, changes: PilotChange[]): Promise<string[]> {
      const folded = new Map<string, { profile: Pilot | null; deleted: boolean; stamp: Stamp }>();
      for (const change of changes) {
        const id = change.kind === 'profile' ? change.pilot.id : change.pilotId;
        const current = folded.get(id);
        if (current && !isNewerOrSame(change.stamp, current.stamp)) continue;
        folded.set(
          id,
          change.kind === 'profile'
            ? { profile: change.pilot, deleted: false, stamp: change.stamp }
            : { profile: current?.profile ?? null, deleted: true, stamp: change.stamp },
        );
      }
      if (folded.size === 0) return [];
      const rows = [...folded].map(([id, { profile, deleted, stamp }]) => ({
        id,
        rank: profile?.rank ?? null,
        fleet: profile?.fleet ?? null,
        ltc: profile?.ltc ?? false,
        search_day_range: profile?.searchDayRange ?? null,
        deleted,
        contact: profile === null ? null : JSON.stringify(contactOf(profile)),
        event_version: stamp.version,
        event_at: stamp.at,
      }));
      // A deletion carries no profile: it keeps the one already known, for the contact on its offers.
      const merge: Record<string, unknown> = { deleted: db.raw('excluded.deleted'), event_version: db.raw('excluded.event_version'), event_at: db.raw('excluded.event_at') };
      for (const column of PILOT_PROFILE_COLUMNS) {
        merge[column] = db.raw(`CASE WHEN excluded.contact IS NULL THEN pilots.${column} ELSE excluded.${column} END`);
      }
      const applied: { id: string }[] = await ex('pilots').insert(rows).onConflict('id').merge(merge).whereRaw(NEWER_OR_SAME('pilots')).returning('id');
      const ids = applied.map((row) => row.id);
      await refreshOffers(ex, { pilotIds: ids });
      return ids;
    },

    /** Applies trip events in order (a deletion leaves a tombstone). Returns the ids whose row changed. */
    async applyTripChanges(ex: Executor, changes: TripChange[]): Promise<string[]> {
      const latest = new Map<string, TripChange>();
      for (const change of changes) {
        const id = change.kind === 'trip' ? change.trip.id : change.tripId;
        const current = latest.get(id);
        if (!current || isNewerOrSame(change.stamp, current.stamp)) latest.set(id, change);
      }
      if (latest.size === 0) return [];
      const rows = [...latest.values()].map((change) =>
        change.kind === 'trip'
          ? {
              id: change.trip.id,
              pilot_id: change.trip.pilotId,
              aircraft: change.trip.aircraft,
              start_date: change.trip.startDate,
              end_date: change.trip.endDate,
              is_swappable: change.trip.isSwappable,
              offer_type: change.trip.offerType,
              training: change.trip.training,
              is_standby: change.trip.isStandby,
              search_start_date: change.trip.searchStartDate,
              search_end_date: change.trip.searchEndDate,
              deleted: false,
              data: JSON.stringify(change.trip),
              report_at: change.trip.reportAt,
              release_at: change.trip.releaseAt,
              // jsonb as text: node-postgres would write an array as a Postgres array.
              sectors: change.trip.sectors === null ? null : JSON.stringify(change.trip.sectors),
              block_minutes: change.trip.blockMinutes,
              event_version: change.stamp.version,
              event_at: change.stamp.at,
            }
          : {
              id: change.tripId,
              pilot_id: change.pilotId,
              aircraft: null,
              start_date: null,
              end_date: null,
              is_swappable: false,
              offer_type: 'swap',
              training: false,
              is_standby: false,
              search_start_date: null,
              search_end_date: null,
              deleted: true,
              data: null,
              report_at: null,
              release_at: null,
              sectors: null,
              block_minutes: null,
              event_version: change.stamp.version,
              event_at: change.stamp.at,
            },
      );
      const applied: { id: string; pilot_id: string }[] = await ex('trips')
        .insert(rows)
        .onConflict('id')
        .merge([...TRIP_COLUMNS, 'event_version', 'event_at'])
        .whereRaw(NEWER_OR_SAME('trips'))
        .returning(['id', 'pilot_id']);
      const ids = applied.map((row) => row.id);
      // Every offer of these pilots holds the days of their other trips (Mutual): all are rewritten.
      await refreshOffers(ex, { tripIds: ids, pilotIds: [...new Set(applied.map((row) => row.pilot_id))] });
      return ids;
    },

    /** Keeps the newest value of a setting; returns whether this one was applied. */
    async applySetting(ex: Executor, key: string, value: string, at: Date): Promise<boolean> {
      const applied = await ex('settings')
        .insert({ key, value, event_at: at })
        .onConflict('key')
        .merge(['value', 'event_at'])
        .whereRaw('settings.event_at <= excluded.event_at')
        .returning('key');
      return applied.length > 0;
    },

    async swapSearchDays(ex: Executor = db): Promise<number> {
      const row: { value: string } | undefined = await ex('settings').where({ key: 'swap_search_days' }).first('value');
      return parseSwapSearchDays(row?.value);
    },

    async findTrip(id: string, ex: Executor = db): Promise<Trip | undefined> {
      const row: { data: Trip } | undefined = await ex('trips').where({ id, deleted: false }).first('data');
      return row?.data;
    },

    /** Live trips by id, in no particular order: the digest's groups. */
    async findTrips(ids: string[], ex: Executor = db): Promise<Trip[]> {
      const rows: { data: Trip }[] = await ex('trips').whereRaw('id = ANY(?::uuid[])', [ids]).andWhere({ deleted: false }).select('data');
      return rows.map((row) => row.data);
    },

    async findPilot(id: string, ex: Executor = db): Promise<PilotRecord | undefined> {
      const row: PilotRowOut | undefined = await ex('pilots').where({ id }).first();
      return row && toPilotRecord(row);
    },

    /**
     * What Find swaps needs before it can look for offers, in one round trip: the trip (if it is
     * live), the asking pilot (if known with a profile) and the swap window setting.
     */
    async findAskContext(
      tripId: string,
      pilotId: string,
      options: { heldRoster?: readonly TripTimes[]; ex?: Executor } = {},
    ): Promise<{ trip?: Trip; asker?: PilotRecord; settingDays: number; askerOtherTrips: DayRange[]; roster: readonly TripTimes[]; limits: FlightTimeLimits }> {
      const { heldRoster, ex = db } = options;
      const result = await ex
        .raw<{ rows: (PilotRowOut & { trip: Trip | null; setting: string | null; other_trips?: [string, string][]; roster?: TripTimes[]; limits: string | null })[] }>(
          heldRoster ? ASK_CONTEXT_HELD_ROSTER_SQL : ASK_CONTEXT_SQL,
          [tripId, pilotId],
        )
        .options({ name: heldRoster ? 'swaps_ask_context_held_roster' : 'swaps_ask_context_times' });
      const row = result.rows[0];
      // The asker's other trips are their roster's, but the one searched (and trips without an end).
      const otherTrips = heldRoster
        ? heldRoster.filter((trip) => trip.id !== tripId && trip.endDate).map((trip) => ({ from: trip.startDate, to: trip.endDate }))
        : (row?.other_trips ?? []).map(([from, to]) => ({ from, to }));
      return {
        trip: row?.trip ?? undefined,
        asker: row && toPilotRecord(row),
        settingDays: parseSwapSearchDays(row?.setting ?? undefined),
        askerOtherTrips: otherTrips,
        roster: heldRoster ?? row?.roster ?? [],
        limits: parseFlightTimeLimits(row?.limits ?? undefined),
      };
    },

    /**
     * Pilots' live trips with their duty times and where each is based (issue 55): the rosters the
     * flight time limitations check reads, by pilot. A pilot without a profile has none.
     */
    async rosters(pilotIds: string[], ex: Executor = db): Promise<Map<string, { roster: TripTimes[]; base: string }>> {
      const result = await ex.raw<{ rows: { id: string; base: string; roster: TripTimes[] }[] }>(
        `SELECT p.id, p.contact->>'base' AS base, ${rosterJsonSql('p.id')} AS roster
           FROM pilots p WHERE p.id = ANY(CAST(? AS uuid[])) AND p.contact IS NOT NULL`,
        [pilotIds],
      );
      return new Map(result.rows.map((row) => [row.id, { roster: row.roster, base: row.base }]));
    },

    /** The `flight_time_limits` setting, or the defaults. */
    async flightTimeLimits(ex: Executor = db): Promise<FlightTimeLimits> {
      const row: { value: string } | undefined = await ex('settings').where({ key: 'flight_time_limits' }).first('value');
      return parseFlightTimeLimits(row?.value);
    },

    /**
     * `rosters` and `flightTimeLimits` in one round trip: what the swap check reads inside an
     * accept's transaction, where each statement more holds the connection (and the trips' locks) longer.
     */
    async rostersAndLimits(pilotIds: string[], ex: Executor = db): Promise<{ rosters: Map<string, { roster: TripTimes[]; base: string }>; limits: FlightTimeLimits }> {
      const result = await ex.raw<{ rows: { limits: string | null; rosters: { id: string; base: string; roster: TripTimes[] }[] }[] }>(
        `SELECT (SELECT value FROM settings WHERE key = 'flight_time_limits') AS limits,
                (SELECT COALESCE(json_agg(json_build_object('id', p.id, 'base', p.contact->>'base', 'roster', ${rosterJsonSql('p.id')})), '[]')
                   FROM pilots p WHERE p.id = ANY(CAST(? AS uuid[])) AND p.contact IS NOT NULL) AS rosters`,
        [pilotIds],
      );
      const row = result.rows[0]!;
      return { rosters: new Map(row.rosters.map((pilot) => [pilot.id, { roster: pilot.roster, base: pilot.base }])), limits: parseFlightTimeLimits(row.limits ?? undefined) };
    },

    /**
     * Offered trips of other pilots that the asker could take and whose pilot could take the
     * asker's trip, starting inside the window: same-dates offers first, then by start date.
     * Answers the JSON text of SwapMatch[] from the stored JSON texts: offer lists run to hundreds
     * at airline scale, and parsing them here only to serialise them again costs more than the query.
     */
    async findOffersJson(query: OfferQuery, ex: Executor = db): Promise<string> {
      const { checks } = query;
      const sort = query.sort ?? 'relevance';
      const run = async (left: { notMutual: Set<string>; hidden: Set<string> }, page: MatchPage) => {
        const { sql, bindings } = offersQuery({ ...query, page }, { notMutual: [...left.notMutual], hidden: [...left.hidden] });
        // A prepared statement (per connection and order): parsed and planned once, not on every request.
        const result = await ex.raw<{ rows: OffersAnswerRow[] }>(sql, bindings).options({ name: `swaps_find_offers_${sort}` });
        return result.rows[0]!;
      };
      // The legality checks (issue 55) are node's: Postgres is told which offers they leave out and
      // which are not Mutual after all, and asked again until the page's own rows agree (the offer
      // index asks them row by row instead).
      const left = { notMutual: new Set<string>(), hidden: new Set<string>() };
      if (checks?.hidden) {
        for (const [, , times] of (await run(left, null)).rows ?? []) if (checks.hidden(times)) left.hidden.add(times.id);
      }
      let row = await run(left, query.page);
      for (let pass = 0; checks && pass < 20; pass += 1) {
        const demoted = (row.rows ?? []).filter(([, mutual, times, ownerId]) => mutual && !checks.stillMutual(times, ownerId));
        if (demoted.length === 0) break;
        for (const [, , times] of demoted) left.notMutual.add(times.id);
        row = await run(left, query.page);
      }
      const last: MatchKey | null = row.last && {
        mutual: row.last[0],
        urgent: row.last[1],
        sameDates: row.last[2],
        startDate: row.last[3],
        endDate: row.last[4],
        tripId: row.last[5],
        sort,
        value: row.last[6],
      };
      const { head, tail } = answerWrapping(query.trip.id, query.page, { total: Number(row.total), last, more: Number(row.remaining) > Number(row.given) });
      const rows = (row.rows ?? []).map(([text, , times]) => `${text}${checks ? checks.rowEnd(times) : ''}}`);
      return head + rows.join(',') + tail;
    },

    /**
     * The reverse question: pilots (not deleted, not the owner) with a trip that would find this
     * offer, each trip measured with its own window (trip range, else the pilot's day range,
     * else the setting). One row per pilot.
     */
    async findRecipients(query: RecipientQuery, ex: Executor = db): Promise<Recipient[]> {
      const { sql, bindings } = recipientsQuery(query);
      const result = await ex.raw<{ rows: { pilot_id: string; trip_id: string }[] }>(sql, bindings);
      return result.rows.map((row) => ({ pilotId: row.pilot_id, tripId: row.trip_id }));
    },

    /**
     * A pilot's notification preferences, applied only when newer than what is held: swap alerts
     * go to pilots with notifications and swap alerts both on.
     */
    async applyAlertPreferences(ex: Executor, change: { pilotId: string; swapAlerts: boolean; digest?: DigestPreference | null; version: number }): Promise<void> {
      await ex.raw(
        `INSERT INTO alert_preferences (pilot_id, swap_alerts, digest, version) VALUES (?, ?, ?, ?)
         ON CONFLICT (pilot_id) DO UPDATE SET swap_alerts = EXCLUDED.swap_alerts, digest = EXCLUDED.digest, version = EXCLUDED.version
         WHERE alert_preferences.version < EXCLUDED.version`,
        [change.pilotId, change.swapAlerts, change.digest ? JSON.stringify(change.digest) : null, change.version],
      );
    },

    /** Empties the projection (not the record of alerts sent: a rebuild must never alert again). */
    async clear(ex: Executor): Promise<void> {
      await ex('offers').delete();
      await ex('pilots').delete();
      await ex('trips').delete();
      await ex('settings').delete();
    },

    /**
     * Deletes trip tombstones whose deletion is older than `before`: a late event of the trip
     * could only come from a redelivery (within a minute) or a rebuild, which replays the
     * deletion too, so an old tombstone protects nothing.
     */
    async pruneTombstones(before: Date, ex: Executor = db): Promise<number> {
      return ex('trips').where({ deleted: true }).andWhere('event_at', '<', before).delete();
    },

    async counts(ex: Executor = db): Promise<{ pilots: number; trips: number; offers: number; tombstones: number }> {
      const [pilots, trips] = await Promise.all([
        ex('pilots').count({ n: '*' }).first(),
        ex('trips')
          .select(
            ex.raw('count(*) FILTER (WHERE NOT deleted) AS trips'),
            ex.raw('count(*) FILTER (WHERE NOT deleted AND is_swappable) AS offers'),
            ex.raw('count(*) FILTER (WHERE deleted) AS tombstones'),
          )
          .first(),
      ]);
      return { pilots: Number(pilots?.n ?? 0), trips: Number(trips.trips), offers: Number(trips.offers), tombstones: Number(trips.tombstones) };
    },
  };
}
export type ReadModelRepository = ReturnType<typeof createReadModelRepository>;

/** A pilot known with a profile (a deletion alone leaves a row without one). */
export function toPilotRecord(row: PilotRowOut): PilotRecord | undefined {
  const { id, rank, fleet, contact } = row;
  // The ask context's left join gives null columns where the pilot is not known.
  if (!id || !rank || !fleet || !contact) return undefined;
  return { ...fromRow(row, ['ltc', 'search_day_range', 'deleted']), id, rank, fleet, contact };
}

/** A pilot's live trips as the flight time limitations check reads them (proto TripTimes[]), as JSON. */
export function rosterJsonSql(pilotId: string): string {
  return `(SELECT COALESCE(json_agg(json_build_object('id', x.id, 'flightNoStart', x.data->>'flightNoStart', 'startDate', x.start_date, 'endDate', x.end_date,
                                                     'reportAt', ${instantSql('x.report_at')}, 'releaseAt', ${instantSql('x.release_at')}, 'sectors', x.sectors)
                                     ORDER BY x.start_date, x.id), '[]')
             FROM trips x WHERE x.pilot_id = ${pilotId} AND NOT x.deleted AND x.start_date IS NOT NULL)`;
}

/** The ask context's statement; without the roster's columns when the asker's roster is held in memory (data/roster-cache.ts). */
const askContextSql = (withRoster: boolean) => `
  SELECT t.data AS trip, p.id, p.rank, p.fleet, p.ltc, p.search_day_range, p.deleted, p.contact,
         (SELECT value FROM settings WHERE key = 'swap_search_days') AS setting,
         (SELECT value FROM settings WHERE key = 'flight_time_limits') AS limits
         ${
           withRoster
             ? `, ${rosterJsonSql('p.id')} AS roster,
                (SELECT COALESCE(json_agg(json_build_array(x.start_date, x.end_date) ORDER BY x.start_date, x.id), '[]')
                   FROM trips x
                  WHERE x.pilot_id = p.id AND NOT x.deleted AND x.id IS DISTINCT FROM t.id AND x.start_date IS NOT NULL AND x.end_date IS NOT NULL) AS other_trips`
             : ''
         }
    FROM (SELECT 1) AS one
    LEFT JOIN trips t ON t.id = ? AND NOT t.deleted
    LEFT JOIN pilots p ON p.id = ?`;
const ASK_CONTEXT_SQL = askContextSql(true);
const ASK_CONTEXT_HELD_ROSTER_SQL = askContextSql(false);

/** The offers table, as the swap rule reads an offer. */
const OFFER_SIDE: SideColumns = offerRowColumns('o', {
  // The offers table holds no standby duty (offer-rows.ts).
  standby: 'false',
  // The offer's own window, for Mutual: its range, else its owner's day range, else the setting.
  window: { searchFrom: 'o.search_start_date', searchTo: 'o.search_end_date', pilotDays: 'o.day_range', settingDays: 'CAST(:days AS int)' },
  // The owner's other trips, from trips itself (the offer index holds a copy in each row).
  otherTripOn: (from, to) =>
    `EXISTS (SELECT 1 FROM trips x WHERE x.pilot_id = o.pilot_id AND NOT x.deleted AND x.id <> o.trip_id AND x.start_date <= ${to} AND x.end_date >= ${from})`,
});

/** One row of findOffersJson's answer: the row's text less its closing brace, whether Mutual, its times. */
type OffersAnswerRow = {
  total: string;
  remaining: string;
  given: string;
  rows: [string, boolean, TripTimes, string][] | null;
  last: [boolean, boolean, boolean, string, string, string, number] | null;
};

/** The answer's order (match-page.ts, MatchKey), over the columns of `found` below, and the cursor's place in it. */
const ANSWER_ORDERS: Record<MatchSort, { order: string; reverse: string; after: string }> = {
  relevance: {
    order: 'mutual DESC, urgent DESC, same DESC, start_date, end_date, trip_id',
    reverse: 'mutual, urgent, same, start_date DESC, end_date DESC, trip_id DESC',
    after: `(NOT mutual, NOT urgent, NOT same, start_date, end_date, trip_id)
             > (NOT CAST(:after_mutual AS boolean), NOT CAST(:after_urgent AS boolean), NOT CAST(:after_same AS boolean),
                CAST(:after_start AS date), CAST(:after_end AS date), CAST(:after_trip AS uuid))`,
  },
  ...Object.fromEntries(
    (['start', 'block', 'daysAway'] as const).map((sort) => [
      sort,
      {
        order: 'sort_value, start_date, end_date, trip_id',
        reverse: 'sort_value DESC, start_date DESC, end_date DESC, trip_id DESC',
        after: '(sort_value, start_date, end_date, trip_id) > (CAST(:after_value AS int), CAST(:after_start AS date), CAST(:after_end AS date), CAST(:after_trip AS uuid))',
      },
    ]),
  ),
} as Record<MatchSort, { order: string; reverse: string; after: string }>;

/** match-page.ts's sortValue in SQL. */
const SORT_VALUE_SQL: Record<MatchSort, string> = {
  relevance: '0',
  start: '0',
  block: 'COALESCE(-o.block_minutes, 1)',
  daysAway: '(o.end_date - o.start_date + 1)',
};

/** The SQL of findOffersJson, apart so that the bench can EXPLAIN exactly what runs. */
export function offersQuery(query: OfferQuery, left: { notMutual: string[]; hidden: string[] } = { notMutual: [], hidden: [] }): { sql: string; bindings: Record<string, unknown> } {
  const { trip, page } = query;
  const sort = query.sort ?? 'relevance';
  const order = ANSWER_ORDERS[sort];
  const rule = constraintSql(OFFER_SIDE, offersFor(query));
  const mutual = constraintSql(OFFER_SIDE, mutualOffersFor(query), 'mutual');
  const after = page?.after ?? null;
  return {
    // offers_match finds the rows alone (index-only): rank, fleets and aircraft as index
    // conditions, the window as the range; the rest is filtered from the included columns.
    // Mutual asks trips for the owners' other trips, row by row (trips_live_by_pilot).
    // Postgres writes the rows' JSON as one text value for the driver to read, not ~400 rows.
    sql: `
      WITH found AS (
        SELECT o.trip_id, o.pilot_id, o.start_date, o.end_date, o.trip_json, o.pilot_json,
               (o.start_date = :start AND o.end_date = :end) AS same,
               (${mutual.where} AND NOT o.trip_id = ANY(CAST(:not_mutual AS uuid[]))) AS mutual,
               (o.start_date BETWEEN CAST(:urgent_from AS date) AND CAST(:urgent_to AS date)) AS urgent,
               ${SORT_VALUE_SQL[sort]} AS sort_value,
               json_build_object('id', o.trip_id, 'flightNoStart', COALESCE(o.flight_no_start, ''), 'startDate', o.start_date, 'endDate', o.end_date,
                                 'reportAt', ${instantSql('o.report_at')}, 'releaseAt', ${instantSql('o.release_at')}, 'sectors', o.sectors) AS times
          FROM offers o
         WHERE ${rule.where} AND NOT o.trip_id = ANY(CAST(:hidden AS uuid[]))
      ), after AS (
        SELECT * FROM found
         WHERE CAST(:after_trip AS uuid) IS NULL
            OR ${order.after}
      ), given AS (
        SELECT * FROM after ORDER BY ${order.order} LIMIT CAST(:limit AS int)
      )
      SELECT (SELECT count(*) FROM found) AS total,
             (SELECT count(*) FROM after) AS remaining,
             (SELECT count(*) FROM given) AS given,
             (SELECT json_agg(json_build_array('{"trip":' || trip_json || ',"pilot":' || pilot_json || ',"sameDates":' || same::text
                                         || ',"mutual":' || mutual::text || ',"urgent":' || urgent::text, mutual, times, pilot_id) ORDER BY ${order.order})
                FROM given) AS rows,
             (SELECT json_build_array(mutual, urgent, same, start_date, end_date, trip_id, sort_value)
                FROM given ORDER BY ${order.reverse} LIMIT 1) AS last`,
    bindings: {
      ...rule.bindings,
      ...mutual.bindings,
      start: trip.startDate,
      end: trip.endDate,
      days: query.settingDays,
      urgent_from: query.urgent.from,
      urgent_to: query.urgent.to,
      after_mutual: after?.mutual ?? null,
      after_urgent: after?.urgent ?? null,
      after_same: after?.sameDates ?? null,
      after_start: after?.startDate ?? null,
      after_end: after?.endDate ?? null,
      after_trip: after?.tripId ?? null,
      after_value: after?.value ?? 0,
      not_mutual: left.notMutual,
      hidden: left.hidden,
      // No limit: the whole list.
      limit: page?.limit ?? null,
    },
  };
}

/** A live trip and its pilot, as the swap rule reads an asker. */
export const ASKER_SIDE: SideColumns = {
  pilotId: 't.pilot_id',
  rank: 'r.rank',
  fleet: 'r.fleet',
  aircraft: 't.aircraft',
  training: 't.training',
  ltcCaptain: ltcCaptainSql('r'),
  standby: 't.is_standby',
  startDate: 't.start_date',
  endDate: 't.end_date',
  // The trip's own window: its range, else the pilot's day range, else the setting.
  window: { searchFrom: 't.search_start_date', searchTo: 't.search_end_date', pilotDays: 'r.search_day_range', settingDays: 'CAST(:days AS int)' },
};

/** The SQL of findRecipients, apart so that the bench can EXPLAIN exactly what runs. */
export function recipientsQuery(query: RecipientQuery): { sql: string; bindings: Record<string, unknown> } {
  const rule = constraintSql(ASKER_SIDE, askersOf(query));
  return {
    // Beside the rule: trips and pilots still here, pilots known with a profile, swap alerts on.
    sql: `
      SELECT DISTINCT ON (t.pilot_id) t.pilot_id, t.id AS trip_id
        FROM trips t
        JOIN pilots r ON r.id = t.pilot_id
        LEFT JOIN alert_preferences ap ON ap.pilot_id = t.pilot_id
       WHERE NOT t.deleted
         AND NOT r.deleted AND r.contact IS NOT NULL
         AND COALESCE(ap.swap_alerts, true)
         AND ${rule.where}
       ORDER BY t.pilot_id, t.start_date, t.id`,
    bindings: { ...rule.bindings, days: query.settingDays },
  };
}

const CONTACT_KEYS = Object.keys(PilotContact.shape) as (keyof PilotContact)[];

/** What another pilot may see of a pilot: the proto's PilotContact, phone included for WhatsApp. */
export function contactOf(pilot: Pilot): PilotContact {
  return Object.fromEntries(CONTACT_KEYS.map((key) => [key, pilot[key]])) as PilotContact;
}

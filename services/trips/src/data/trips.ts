import { type Db, type Executor, type OutboxRow } from '@crewswap/kit';
import { DEFAULT_DUTY_ALLOWANCES, tripValue, type Aircraft, type DutyAllowances, type OfferType, type Sector, type Trip, type TripSource } from '@crewswap/proto';

export interface TripRow {
  id: string;
  pilot_id: string;
  flight_no_start: string;
  flight_no_end: string;
  aircraft: string | null;
  route: string;
  start_date: string;
  end_date: string;
  is_swappable: boolean;
  offer_type: OfferType;
  training: boolean;
  requested: boolean;
  companions: number | null;
  swap_description: string | null;
  ics_description: string | null;
  search_start_date: string | null;
  search_end_date: string | null;
  is_standby: boolean;
  source: TripSource;
  report_at: Date | null;
  release_at: Date | null;
  sectors: Sector[] | null;
  version: number;
  created_at: Date;
  updated_at: Date;
}

/** What a trip's value is derived from, not stored. */
type DerivedField = 'blockMinutes' | 'dutyMinutes' | 'nightsAway' | 'landings';
/**
 * The fields of a trip a pilot or an import decides (everything but ids, version, timestamps and
 * the value derived from its duty times); duty times left out are not known.
 */
export type TripFields = Omit<Trip, 'id' | 'pilotId' | 'createdAt' | 'updatedAt' | DerivedField | 'reportAt' | 'releaseAt' | 'sectors'> &
  Partial<Pick<Trip, 'reportAt' | 'releaseAt' | 'sectors'>>;

/** Instants as the contract writes them: '2026-11-04T10:05:00Z'. */
const instant = (date: Date | null): string | null => (date === null ? null : date.toISOString().replace('.000Z', 'Z'));

/** Nights are counted at home base; both bases (LHR, MAN) keep London's clock. */
export const HOME_ZONE = 'Europe/London';

/**
 * A stored trip as the contract has it, with its value derived from its duty times (issue 55);
 * `allowances` are the admin's report and release allowances.
 */
export function toStoredTrip(row: TripRow, allowances: DutyAllowances = DEFAULT_DUTY_ALLOWANCES): Trip {
  const reportAt = instant(row.report_at ?? null);
  const releaseAt = instant(row.release_at ?? null);
  const sectors = row.sectors ?? null;
  const value = tripValue({ reportAt, releaseAt, sectors, id: row.id, flightNoStart: row.flight_no_start, startDate: row.start_date, endDate: row.end_date }, HOME_ZONE, allowances);
  // Written out field by field: every list of trips makes one per row, and one built by spreading a
  // column-by-column copy cost about 30 µs a row (make load's trips process).
  return {
    reportAt,
    releaseAt,
    sectors,
    blockMinutes: value.blockMinutes,
    dutyMinutes: value.dutyMinutes,
    nightsAway: value.nightsAway,
    landings: value.landings,
    id: row.id,
    pilotId: row.pilot_id,
    flightNoStart: row.flight_no_start,
    flightNoEnd: row.flight_no_end,
    route: row.route,
    startDate: row.start_date,
    endDate: row.end_date,
    isSwappable: row.is_swappable,
    offerType: row.offer_type,
    training: row.training,
    requested: row.requested,
    companions: row.companions,
    swapDescription: row.swap_description,
    icsDescription: row.ics_description,
    searchStartDate: row.search_start_date,
    searchEndDate: row.search_end_date,
    isStandby: row.is_standby,
    source: row.source,
    aircraft: row.aircraft as Aircraft | null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function toRow(fields: Partial<TripFields>): Partial<TripRow> {
  const row: Partial<TripRow> = {};
  const map: [keyof TripFields, keyof TripRow][] = [
    ['flightNoStart', 'flight_no_start'],
    ['flightNoEnd', 'flight_no_end'],
    ['aircraft', 'aircraft'],
    ['route', 'route'],
    ['startDate', 'start_date'],
    ['endDate', 'end_date'],
    ['isSwappable', 'is_swappable'],
    ['offerType', 'offer_type'],
    ['training', 'training'],
    ['requested', 'requested'],
    ['companions', 'companions'],
    ['swapDescription', 'swap_description'],
    ['icsDescription', 'ics_description'],
    ['searchStartDate', 'search_start_date'],
    ['searchEndDate', 'search_end_date'],
    ['isStandby', 'is_standby'],
    ['source', 'source'],
    ['reportAt', 'report_at'],
    ['releaseAt', 'release_at'],
  ];
  for (const [field, column] of map) {
    if (fields[field] !== undefined) (row as Record<string, unknown>)[column] = fields[field];
  }
  // jsonb: as text, which node-postgres would otherwise write as a Postgres array.
  if (fields.sectors !== undefined) (row as Record<string, unknown>).sectors = fields.sectors === null ? null : JSON.stringify(fields.sectors);
  return row;
}

export function createTripRepository(db: Db, allowances: () => DutyAllowances = () => DEFAULT_DUTY_ALLOWANCES) {
  const toTrip = (row: TripRow) => toStoredTrip(row, allowances());
  return {
    /** A trip not read from a row (one being added) with its value derived as a stored one's. */
    withValue(trip: Omit<Trip, DerivedField>): Trip {
      return { ...trip, ...tripValue(trip, HOME_ZONE, allowances()) };
    },

    async listByPilot(pilotId: string, trx: Executor = db): Promise<Trip[]> {
      const rows: TripRow[] = await trx('trips').where({ pilot_id: pilotId }).orderBy([{ column: 'start_date' }, { column: 'end_date' }, { column: 'flight_no_start' }]);
      return rows.map(toTrip);
    },

    /**
     * The pilot's trips that have not ended by `today`, with their versions and whether a swap of
     * each is agreed (the calendar feed's).
     */
    async listUpcoming(pilotId: string, today: string, trx: Executor = db): Promise<{ trip: Trip; version: number; agreed: boolean }[]> {
      const rows: (TripRow & { agreed: boolean })[] = await trx('trips')
        .select('trips.*', trx.raw('EXISTS (SELECT 1 FROM agreed_swaps WHERE agreed_swaps.trip_id = trips.id) AS agreed'))
        .where({ pilot_id: pilotId })
        .where('end_date', '>=', today)
        .orderBy([{ column: 'start_date' }, { column: 'end_date' }, { column: 'flight_no_start' }]);
      return rows.map((row) => ({ trip: toTrip(row), version: row.version, agreed: row.agreed }));
    },

    /** Another pilot's trip is as good as missing: callers answer 404 either way. */
    async findOwn(pilotId: string, id: string, trx: Executor = db, forUpdate = false): Promise<Trip | undefined> {
      const query = trx('trips').where({ id, pilot_id: pilotId }).first();
      const row: TripRow | undefined = await (forUpdate ? query.forUpdate() : query);
      return row && toTrip(row);
    },

    /** Any pilot's trip: the month view's offered trip (issue 55), which trips owns as it owns all. */
    async findAny(id: string, trx: Executor = db): Promise<Trip | undefined> {
      const row: TripRow | undefined = await trx('trips').where({ id }).first();
      return row && toTrip(row);
    },

    /** The pilot's first trip whose dates touch [startDate, endDate] (both inclusive). */
    async findOverlap(pilotId: string, startDate: string, endDate: string, exceptId: string | null, trx: Executor = db): Promise<Trip | undefined> {
      const query = trx('trips')
        .where({ pilot_id: pilotId })
        .where('start_date', '<=', endDate)
        .where('end_date', '>=', startDate)
        .orderBy('start_date')
        .first();
      if (exceptId) query.whereNot({ id: exceptId });
      const row: TripRow | undefined = await query;
      return row && toTrip(row);
    },

    async insert(pilotId: string, fields: TripFields, trx: Executor = db): Promise<Trip> {
      const [row] = (await trx('trips').insert({ ...toRow(fields), pilot_id: pilotId }).returning('*')) as TripRow[];
      return toTrip(row!);
    },

    /**
     * Inserts the trip (its id and times chosen by the caller) and its events' outbox rows in one
     * statement, unless the pilot already has a trip touching the same dates: then nothing is
     * written and it answers false. One round trip where a check, an insert and an outbox insert
     * took three (callers hold the pilot's row lock).
     */
    async insertWithEventsUnlessOverlap(trip: Trip, outboxRows: OutboxRow[], trx: Executor = db): Promise<boolean> {
      const { id, pilotId, createdAt, updatedAt, ...fields } = trip;
      const row = { ...toRow(fields), id, pilot_id: pilotId, created_at: createdAt, updated_at: updatedAt };
      const columns = Object.keys(row);
      const result = (await trx.raw(
        `WITH trip AS (
           INSERT INTO trips (${columns.map(() => '??').join(', ')})
           SELECT ${columns.map(() => '?').join(', ')}
           WHERE NOT EXISTS (SELECT 1 FROM trips WHERE pilot_id = ? AND start_date <= ? AND end_date >= ?)
           RETURNING id)
         INSERT INTO outbox (id, subject, envelope, trace_context)
         SELECT event.id, event.subject, event.envelope::jsonb, event.trace_context::jsonb
           FROM trip, ROWS FROM (jsonb_to_recordset(?::jsonb) AS (id uuid, subject text, envelope text, trace_context text)) WITH ORDINALITY AS event(id, subject, envelope, trace_context, n)
          ORDER BY event.n
         RETURNING outbox.id`,
        [...columns, ...(Object.values(row) as (string | number | boolean | Date | null)[]), pilotId, fields.endDate, fields.startDate, JSON.stringify(outboxRows)],
      )) as { rows: { id: string }[] };
      // The events' serial seq follows their order (created before offered), so they publish in order.
      return result.rows.length > 0;
    },

    async insertMany(pilotId: string, list: TripFields[], trx: Executor = db): Promise<Trip[]> {
      if (list.length === 0) return [];
      const rows = (await trx('trips').insert(list.map((fields) => ({ ...toRow(fields), pilot_id: pilotId }))).returning('*')) as TripRow[];
      return rows.map(toTrip);
    },

    /** Applies a change and bumps the version; answers the trip as stored and its new version. */
    async update(id: string, fields: Partial<TripFields>, trx: Executor = db): Promise<{ trip: Trip; version: number }> {
      const [row] = (await trx('trips')
        .where({ id })
        .update({ ...toRow(fields), version: trx.raw('version + 1'), updated_at: trx.fn.now() })
        .returning('*')) as TripRow[];
      return { trip: toTrip(row!), version: row!.version };
    },

    /**
     * Applies the same kind of change to several trips in one statement (a roster import's changed
     * duties), each bumping its version; answers them as stored, in the order given. Every item
     * must set the same fields.
     */
    async updateMany(items: { id: string; fields: Partial<TripFields> }[], trx: Executor = db): Promise<{ trip: Trip; version: number }[]> {
      if (items.length === 0) return [];
      // Sectors go into the JSON array as JSON, not as the text toRow makes of them.
      const rows = items.map(({ id, fields }) => ({ id, ...toRow(fields), ...(fields.sectors === undefined ? {} : { sectors: fields.sectors }) }));
      const columns = Object.keys(rows[0]!).filter((column) => column !== 'id');
      // The changes arrive as one JSON array, each column cast to its own type.
      const result = (await trx.raw(
        `UPDATE trips SET ${columns.map(() => '?? = change.??').join(', ')}, version = trips.version + 1, updated_at = now()
           FROM jsonb_populate_recordset(NULL::trips, ?::jsonb) AS change
          WHERE trips.id = change.id
          RETURNING trips.*`,
        [...columns.flatMap((column) => [column, column]), JSON.stringify(rows)],
      )) as { rows: TripRow[] };
      const byId = new Map(result.rows.map((row) => [row.id, row]));
      return items.map(({ id }) => {
        const row = byId.get(id)!;
        return { trip: toTrip(row), version: row.version };
      });
    },

    /** Deletes and answers what was deleted, with the version a deletion event carries. */
    async deleteWhere(where: (query: ReturnType<Db>) => void, trx: Executor = db): Promise<{ trip: Trip; version: number }[]> {
      const query = trx('trips');
      where(query);
      const rows = (await query.delete().returning('*')) as TripRow[];
      return rows.map((row) => ({ trip: toTrip(row), version: row.version + 1 }));
    },

    async versionOf(id: string, trx: Executor = db): Promise<number> {
      const row: { version: number } | undefined = await trx('trips').where({ id }).first('version');
      return row?.version ?? 1;
    },

    async countEndedBefore(cutoff: string, trx: Executor = db): Promise<number> {
      const row = (await trx('trips').where('end_date', '<', cutoff).count({ n: '*' }).first()) as { n: number } | undefined;
      return row?.n ?? 0;
    },

    async countsByPilot(pilotIds: string[] | undefined, trx: Executor = db): Promise<Record<string, number>> {
      const query = trx('trips').select('pilot_id').count({ n: '*' }).groupBy('pilot_id');
      if (pilotIds) query.whereIn('pilot_id', pilotIds);
      const rows = (await query) as unknown as { pilot_id: string; n: number }[];
      const counts: Record<string, number> = Object.fromEntries((pilotIds ?? []).map((id) => [id, 0]));
      for (const row of rows) counts[row.pilot_id] = row.n;
      return counts;
    },

    async countForPilots(pilotIds: string[], trx: Executor = db): Promise<number> {
      if (pilotIds.length === 0) return 0;
      const row = (await trx('trips').whereIn('pilot_id', pilotIds).count({ n: '*' }).first()) as { n: number } | undefined;
      return row?.n ?? 0;
    },

    async countForTestPilots(trx: Executor = db): Promise<number> {
      const row = (await trx('trips')
        .join('pilots', 'pilots.id', 'trips.pilot_id')
        .where('pilots.test_data', true)
        .count({ n: '*' })
        .first()) as { n: number } | undefined;
      return row?.n ?? 0;
    },
  };
}
export type TripRepository = ReturnType<typeof createTripRepository>;

/** A stored trip with its value derived with the default allowances (callers outside the repository). */
export function toTrip(row: TripRow): Trip {
  return toStoredTrip(row);
}

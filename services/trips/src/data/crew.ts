import { fromRow, type Db, type Executor } from '@crewswap/kit';
import type { Aircraft, CrewMember, CrossoverPilot, Fleet, MasterCalendarEntry, PilotContact, Rank } from '@crewswap/proto';
import { toTrip, type TripRow } from './trips';

/**
 * Reads across pilots: crews, calendars, crossovers and trip search; who may ask is the domain's
 * business. Deleted pilots never appear. Master Roster off limits a pilot's own-trip visibility
 * to swap offers and same-trip crew (pilot-app section 6), so Crew on Trip shows them while the
 * calendars and Trip Search leave them out (decisions.md). `allVisible` ("all own trips visible",
 * which Master Roster on gives) off does the same to a pilot with Master Roster on: they still
 * use the calendars, but do not appear in them (the profile copy holds it; absent means on).
 */

const VISIBLE = "p.usual_req AND coalesce((p.profile->>'allVisible')::boolean, true) AND NOT p.deleted";
const SAME_TRIP_CREW = 'NOT p.deleted';
const CONTACT = `p.id AS p_id, p.employee_id AS p_employee_id, p.first_name AS p_first_name, p.last_name AS p_last_name,
  coalesce(p.profile->>'email', '') AS p_email, coalesce(p.profile->>'phone', '') AS p_phone,
  p.rank AS p_rank, p.fleet AS p_fleet, p.base AS p_base, p.apic AS p_apic, p.ltc AS p_ltc`;
/** The spec's crew order: CP, FO, SO, JFO, then employee id. */
const CREW_ORDER = `CASE p.rank WHEN 'CP' THEN 0 WHEN 'FO' THEN 1 WHEN 'SO' THEN 2 WHEN 'JFO' THEN 3 ELSE 4 END, p.employee_id, p.id`;

interface ContactColumns {
  p_id: string;
  p_employee_id: string;
  p_first_name: string;
  p_last_name: string;
  p_email: string;
  p_phone: string;
  p_rank: Rank;
  p_fleet: Fleet;
  p_base: PilotContact['base'];
  p_apic: boolean;
  p_ltc: boolean;
}
type TripWithContact = TripRow & ContactColumns;
type CrossoverRow = Pick<TripRow, 'flight_no_start' | 'flight_no_end' | 'route' | 'aircraft' | 'start_date' | 'end_date' | 'is_swappable' | 'training' | 'requested'> &
  Pick<ContactColumns, 'p_id' | 'p_first_name' | 'p_last_name' | 'p_phone' | 'p_rank' | 'p_fleet' | 'p_apic' | 'p_ltc'>;
export interface OpenTrip {
  id: string;
  flightNoStart: string;
  route: string;
  startDate: string;
  endDate: string;
}
type CalendarRow = Pick<TripRow, 'id' | 'flight_no_start' | 'flight_no_end' | 'route' | 'start_date' | 'end_date' | 'is_swappable' | 'requested' | 'training' | 'is_standby'> &
  Pick<ContactColumns, 'p_id' | 'p_first_name' | 'p_last_name' | 'p_rank' | 'p_fleet'>;

function toContact(row: ContactColumns): PilotContact {
  return fromRow(row, ['p_id', 'p_employee_id', 'p_first_name', 'p_last_name', 'p_email', 'p_phone', 'p_rank', 'p_fleet', 'p_base', 'p_apic', 'p_ltc'], 'p_');
}

export function toCrewMember(row: TripWithContact): CrewMember {
  return {
    ...toContact(row),
    tripId: row.id,
    isSwappable: row.is_swappable,
    training: row.training,
    requested: row.requested,
    companions: row.companions,
  };
}

export interface CrewKey {
  flightNoStart: string;
  startDate: string;
}
export const crewKeyOf = (key: CrewKey) => `${key.flightNoStart}|${key.startDate}`;

export function createCrewRepository(db: Db) {
  async function rows(sql: string, bindings: readonly unknown[] | Record<string, unknown>, trx: Executor): Promise<TripWithContact[]> {
    const result = (await trx.raw(sql, bindings as never)) as { rows: TripWithContact[] };
    return result.rows;
  }

  return {
    /** The crew of each key (same start flight and start date), the caller left out, in crew order. */
    async crewOf(keys: CrewKey[], exceptPilotId: string, trx: Executor = db): Promise<Map<string, CrewMember[]>> {
      const crews = new Map<string, CrewMember[]>();
      if (keys.length === 0) return crews;
      const found = await rows(
        `SELECT t.*, ${CONTACT}
         FROM unnest(?::text[], ?::date[]) AS k(flight, start)
         JOIN trips t ON t.flight_no_start = k.flight AND t.start_date = k.start
         JOIN pilots p ON p.id = t.pilot_id
         WHERE NOT t.is_standby AND t.pilot_id <> ? AND ${SAME_TRIP_CREW}
         ORDER BY ${CREW_ORDER}`,
        [keys.map((key) => key.flightNoStart), keys.map((key) => key.startDate), exceptPilotId],
        trx,
      );
      for (const row of found) {
        const key = crewKeyOf({ flightNoStart: row.flight_no_start, startDate: row.start_date });
        const crew = crews.get(key) ?? [];
        crew.push(toCrewMember(row));
        crews.set(key, crew);
      }
      return crews;
    },

    /**
     * Crew on Trip in one round trip: the crew of the caller's own trip `tripId`, or undefined when
     * the caller holds no such trip (a standby duty has no crew).
     */
    async crewOfOwnTrip(pilotId: string, tripId: string, trx: Executor = db): Promise<CrewMember[] | undefined> {
      const found = (await rows(
        `SELECT t.*, ${CONTACT}
         FROM trips mine
         LEFT JOIN (trips t JOIN pilots p ON p.id = t.pilot_id AND ${SAME_TRIP_CREW})
           ON t.flight_no_start = mine.flight_no_start AND t.start_date = mine.start_date AND NOT t.is_standby
              AND NOT mine.is_standby AND t.pilot_id <> mine.pilot_id
         WHERE mine.id = ? AND mine.pilot_id = ?
         ORDER BY ${CREW_ORDER}`,
        [tripId, pilotId],
        trx,
      )) as (TripWithContact | { [K in keyof TripWithContact]: null })[];
      if (found.length === 0) return undefined;
      return found.flatMap((row) => (row.id === null ? [] : [toCrewMember(row)]));
    },

    /** Everyone holding the flight and start date, whatever their Master Roster: they share its group. */
    async holders(key: CrewKey, trx: Executor = db): Promise<{ pilotId: string; tripId: string; endDate: string }[]> {
      const found: { pilot_id: string; id: string; end_date: string }[] = await trx('trips')
        .where({ flight_no_start: key.flightNoStart, start_date: key.startDate, is_standby: false })
        .select('pilot_id', 'id', 'end_date');
      return found.map((row) => ({ pilotId: row.pilot_id, tripId: row.id, endDate: row.end_date }));
    },

    /**
     * The Master Calendar's entries, slimmed to what it shows: pilots of `rank` whose fleet is one of
     * `fleets`, with trips overlapping [from, to], the path's fleet first, then by fleet, last and first name.
     */
    async calendar(input: { rank: Rank; fleets: readonly Fleet[]; fleet: Fleet; from: string; to: string }, trx: Executor = db): Promise<MasterCalendarEntry[]> {
      const { rows: found } = (await trx.raw(
        `SELECT t.id, t.flight_no_start, t.flight_no_end, t.route, t.start_date, t.end_date, t.is_swappable, t.requested, t.training, t.is_standby,
                p.id AS p_id, p.first_name AS p_first_name, p.last_name AS p_last_name, p.rank AS p_rank, p.fleet AS p_fleet
         FROM pilots p
         JOIN trips t ON t.pilot_id = p.id AND t.start_date <= ? AND t.end_date >= ?
         WHERE p.rank = ? AND p.fleet = ANY(?::text[]) AND ${VISIBLE}
         ORDER BY p.fleet <> ?, p.fleet, p.last_name, p.first_name, p.id, t.start_date, t.end_date`,
        [input.to, input.from, input.rank, [...input.fleets], input.fleet],
      )) as { rows: CalendarRow[] };
      return found.map((row) => ({
        trip: {
          id: row.id,
          flightNoStart: row.flight_no_start,
          flightNoEnd: row.flight_no_end,
          route: row.route,
          startDate: row.start_date,
          endDate: row.end_date,
          isSwappable: row.is_swappable,
          requested: row.requested,
          training: row.training,
          isStandby: row.is_standby,
        },
        pilot: { id: row.p_id, firstName: row.p_first_name, lastName: row.p_last_name, rank: row.p_rank, fleet: row.p_fleet },
      }));
    },

    /** A pilot the calendars show (Master Roster on, not deleted), as the contact view shows them. */
    async visibleContact(pilotId: string, trx: Executor = db): Promise<PilotContact | undefined> {
      const { rows: found } = (await trx.raw(`SELECT ${CONTACT} FROM pilots p WHERE p.id = ? AND ${VISIBLE}`, [pilotId])) as { rows: ContactColumns[] };
      return found[0] && toContact(found[0]);
    },

    /** The longest trip held, in days: a trip covering a day starts at most this long before it. */
    async longestTripDays(trx: Executor = db): Promise<number> {
      const { rows: found } = (await trx.raw('SELECT coalesce(max(end_date - start_date), 0)::int AS days FROM trips')) as { rows: { days: number }[] };
      return found[0]?.days ?? 0;
    },

    /** The caller's flying trips not ended by `today` and starting by `to`: what the Crossover Calendar crosses. */
    async openTrips(input: { pilotId: string; today: string; to: string }, trx: Executor = db): Promise<OpenTrip[]> {
      const found: Pick<TripRow, 'id' | 'flight_no_start' | 'route' | 'start_date' | 'end_date'>[] = await trx('trips')
        .where({ pilot_id: input.pilotId, is_standby: false })
        .where('end_date', '>=', input.today)
        .where('start_date', '<=', input.to)
        .select('id', 'flight_no_start', 'route', 'start_date', 'end_date');
      return found.map((row) => ({ id: row.id, flightNoStart: row.flight_no_start, route: row.route, startDate: row.start_date, endDate: row.end_date }));
    },

    /**
     * Every flying trip of a visible pilot overlapping [from, to], as the Crossover Calendar shows its
     * crew, by start date, flights, route and end date, then in crew order (so in crossover groups).
     */
    async crossoverCrews(input: { from: string; to: string }, trx: Executor = db) {
      const { rows: found } = (await trx.raw(
        `SELECT t.flight_no_start, t.flight_no_end, t.route, t.aircraft, t.start_date, t.end_date, t.is_swappable, t.training, t.requested,
                p.id AS p_id, p.first_name AS p_first_name, p.last_name AS p_last_name, coalesce(p.profile->>'phone', '') AS p_phone,
                p.rank AS p_rank, p.fleet AS p_fleet, p.apic AS p_apic, p.ltc AS p_ltc
         FROM trips t JOIN pilots p ON p.id = t.pilot_id
         WHERE NOT t.is_standby AND t.start_date <= ? AND t.end_date >= ? AND ${VISIBLE}
         ORDER BY t.start_date, t.flight_no_start, t.flight_no_end, t.route, t.end_date, ${CREW_ORDER}`,
        [input.to, input.from],
      )) as { rows: CrossoverRow[] };
      return found.map((row) => ({
        trip: {
          flightNoStart: row.flight_no_start,
          flightNoEnd: row.flight_no_end,
          route: row.route,
          aircraft: row.aircraft as Aircraft | null,
          startDate: row.start_date,
          endDate: row.end_date,
        },
        pilot: {
          id: row.p_id,
          firstName: row.p_first_name,
          lastName: row.p_last_name,
          phone: row.p_phone,
          rank: row.p_rank,
          fleet: row.p_fleet,
          apic: row.p_apic,
          ltc: row.p_ltc,
          isSwappable: row.is_swappable,
          training: row.training,
          requested: row.requested,
        } satisfies CrossoverPilot,
      }));
    },

    /**
     * Trip Search: trips of pilots other than the caller whose start flight departs on `date` or
     * end flight returns on it (when a flight is given) and whose route holds every code of
     * `codes` while their dates cover `date` (when codes are given; `longestDays` bounds how early
     * such a trip starts).
     */
    async search(input: { pilotId: string; date: string; flightNumber: string | null; codes: string[] | null; longestDays: number }, trx: Executor = db) {
      const conditions: string[] = [];
      const bindings: Record<string, unknown> = { pilotId: input.pilotId, date: input.date, longest: input.longestDays };
      if (input.flightNumber) {
        conditions.push('((t.flight_no_start = :flight AND t.start_date = :date) OR (t.flight_no_end = :flight AND t.end_date = :date))');
        bindings.flight = input.flightNumber;
      }
      if (input.codes) {
        conditions.push(`t.start_date BETWEEN CAST(:date AS date) - CAST(:longest AS int) AND :date AND t.end_date >= :date AND string_to_array(t.route, '-') @> CAST(:codes AS text[])`);
        bindings.codes = input.codes;
        const [first] = input.codes;
        if (first) {
          conditions.push(`(split_part(t.route, '-', 1) = :first OR (split_part(t.route, '-', 2) = :first AND split_part(t.route, '-', 2) <> ''))`);
          bindings.first = first;
        }
      }
      const found = await rows(
        `SELECT t.*, ${CONTACT}
         FROM trips t JOIN pilots p ON p.id = t.pilot_id
         WHERE NOT t.is_standby AND t.pilot_id <> :pilotId AND ${VISIBLE} AND ${conditions.join(' AND ')}
         ORDER BY t.start_date, t.flight_no_start, t.flight_no_end, t.route, t.end_date, ${CREW_ORDER}
         LIMIT 500`,
        bindings,
        trx,
      );
      return found.map((row) => ({ trip: toTrip(row), member: toCrewMember(row) }));
    },
  };
}
export type CrewRepository = ReturnType<typeof createCrewRepository>;

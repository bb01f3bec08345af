import { aircraftFlownBy, FLEETS, LTC_CAPTAIN, MAX_WINDOW_DAYS, windowOf, type WindowArithmetic } from '@crewswap/proto';
import type { Clause, Constraint, Flag, Role } from '../rules/swap-rule';

/** Where a query finds the side of a swap it is looking for (SQL expressions). */
export interface SideColumns {
  pilotId: string;
  rank: string;
  fleet: string;
  aircraft: string;
  training: string;
  ltcCaptain: string;
  standby: string;
  startDate: string;
  endDate: string;
  /** What the trip's own window (windowOf) is made of, where the query looks for askers or Mutual offers; its start is startDate. */
  window?: { searchFrom: string; searchTo: string; pilotDays: string; settingDays: string };
  /** Whether the side's pilot has another trip on the days from..to (two SQL date expressions). */
  otherTripOn?: (from: string, to: string) => string;
}

/**
 * A row of the offers table (or a query shaped like it) known as `alias`, as the swap rule reads
 * a side: the columns every such row names alike; `standby` and the rest as the query has them.
 */
export function offerRowColumns(alias: string, rest: Pick<SideColumns, 'standby'> & Partial<SideColumns>): SideColumns {
  return {
    pilotId: `${alias}.pilot_id`,
    rank: `${alias}.rank`,
    fleet: `${alias}.fleet`,
    aircraft: `${alias}.aircraft`,
    training: `${alias}.training`,
    ltcCaptain: `${alias}.ltc_captain`,
    startDate: `${alias}.start_date`,
    endDate: `${alias}.end_date`,
    ...rest,
  };
}

/** An LTC captain (proto's isLtcCaptain, the same fields and values) over a pilots row known as `pilot`. */
export function ltcCaptainSql(pilot: string): string {
  const literal = (value: string | boolean) => (typeof value === 'string' ? `'${value}'` : String(value));
  return `(${Object.entries(LTC_CAPTAIN).map(([field, value]) => `${pilot}.${field} = ${literal(value)}`).join(' AND ')})`;
}

/** Dates and day counts as SQL expressions (each one term: a column, a call or a cast), NULL not set: windowOf in SQL. */
const SQL_DATES: WindowArithmetic<string, string> = {
  firstDate: (date, fallback) => `COALESCE(${date}, ${fallback})`,
  firstDays: (days, fallback) => `COALESCE(${days}, ${fallback})`,
  plus: (date, days) => `${date} + ${days}`,
  minus: (date, days) => `${date} - ${days}`,
  later: (a, b) => `GREATEST(${a}, ${b})`,
  earlier: (a, b) => `LEAST(${a}, ${b})`,
};

/** A side's own window (proto's windowOf, row by row), given the SQL of the furthest reach in days. */
function windowSql(columns: SideColumns, maxDays: string, missing: string): { from: string; to: string } {
  if (!columns.window) throw new Error(missing);
  return windowOf(SQL_DATES, { start: columns.startDate, ...columns.window, maxDays });
}

/**
 * The swap rule with one side known (a Constraint), as a WHERE fragment over the other side's
 * columns with named bindings `:<prefix>_*` (default `rule`; two constraints in one statement
 * need two prefixes). The text depends on the columns and on which parts the constraint has,
 * never on their values: the statements stay prepared once per connection.
 */
export function constraintSql(columns: SideColumns, constraint: Constraint, prefix = 'rule'): { where: string; bindings: Record<string, unknown> } {
  const p = (name: string) => `:${prefix}_${name}`;
  const where = [
    p('possible'),
    `${columns.rank} = ANY(${p('rank')})`,
    `${columns.fleet} = ANY(${p('fleet')})`,
    `${columns.aircraft} = ANY(${p('aircraft')})`,
    `${columns.pilotId} IS DISTINCT FROM ${p('not_pilot')}`,
    // A flag's binding is null when either value will do.
    `(CAST(${p('training')} AS boolean) IS NULL OR ${columns.training} = ${p('training')})`,
    `(CAST(${p('ltc_captain')} AS boolean) IS NULL OR ${columns.ltcCaptain} = ${p('ltc_captain')})`,
    `(CAST(${p('standby')} AS boolean) IS NULL OR ${columns.standby} = ${p('standby')})`,
  ];
  const values: Record<string, unknown> = {
    possible: constraint.possible,
    rank: constraint.rank,
    fleet: constraint.fleet,
    aircraft: constraint.aircraft,
    not_pilot: constraint.notPilotId,
    training: constraint.flags.training,
    ltc_captain: constraint.flags.ltcCaptain,
    standby: constraint.flags.standby,
  };
  if (constraint.startsWithin) {
    where.push(`${columns.startDate} BETWEEN CAST(${p('from')} AS date) AND CAST(${p('to')} AS date)`);
    Object.assign(values, { from: constraint.startsWithin.from, to: constraint.startsWithin.to });
  }
  if (constraint.windowCovers !== null) {
    const date = `CAST(${p('date')} AS date)`;
    const window = windowSql(columns, `CAST(${p('max')} AS int)`, 'this query has no window to look for askers in');
    where.push(
      // No window reaches further than :max days from its trip's start: the plain range lets
      // an index on the start date narrow the rows before each window is worked out.
      `${columns.startDate} BETWEEN ${date} - CAST(${p('max')} AS int) AND ${date} + CAST(${p('max')} AS int)`,
      `${window.from} <= ${date}`,
      `${window.to} >= ${date}`,
    );
    Object.assign(values, { date: constraint.windowCovers, max: MAX_WINDOW_DAYS });
  }
  if (constraint.missesDays !== null) {
    where.push(
      `NOT EXISTS (SELECT 1 FROM unnest(CAST(${p('busy_from')} AS date[]), CAST(${p('busy_to')} AS date[])) AS busy(from_date, to_date)
                    WHERE busy.from_date <= ${columns.endDate} AND busy.to_date >= ${columns.startDate})`,
    );
    Object.assign(values, { busy_from: constraint.missesDays.map((days) => days.from), busy_to: constraint.missesDays.map((days) => days.to) });
  }
  if (constraint.freeOn !== null) {
    if (!columns.otherTripOn) throw new Error("this query cannot see the other pilot's trips");
    where.push(`NOT ${columns.otherTripOn(`CAST(${p('free_from')} AS date)`, `CAST(${p('free_to')} AS date)`)}`);
    Object.assign(values, { free_from: constraint.freeOn.from, free_to: constraint.freeOn.to });
  }
  const bindings = Object.fromEntries(Object.entries(values).map(([name, value]) => [`${prefix}_${name}`, value]));
  return { where: where.join('\n         AND '), bindings };
}

/**
 * The swap rule itself with neither side known, as a join condition between two sides' columns
 * (a WHERE fragment, no bindings of its own): many offers against many trips in one statement,
 * where constraintSql asks one offer at a time. Clause by clause as constrain (swap-rule.ts) reads
 * them, so test/swap-rule.test.ts can hold the two to the same answers.
 */
export function ruleJoinSql(rule: readonly Clause[], sides: Record<Role, SideColumns>): string {
  const flag = (role: Role, name: Flag) => sides[role][name];
  // The aircraft each fleet flies, as SQL: constants of the code, never input.
  const flownBy = (fleet: string) =>
    `CASE ${fleet} ${FLEETS.map((f) => `WHEN '${f}' THEN CAST(ARRAY[${aircraftFlownBy(f).map((a) => `'${a}'`).join(', ')}] AS text[])`).join(' ')} END`;
  const where = rule.map((clause): string => {
    switch (clause.kind) {
      case 'same':
        return `${sides.asker[clause.field]} = ${sides.offer[clause.field]}`;
      case 'differ':
        return `${sides.asker[clause.field]} IS DISTINCT FROM ${sides.offer[clause.field]}`;
      case 'flies':
        if (clause.pilot === clause.trip) throw new Error('a pilot flying their own trip is no swap rule');
        // No aircraft (a standby duty) is flown by nobody.
        return `COALESCE(${sides[clause.trip].aircraft} = ANY(${flownBy(sides[clause.pilot].fleet)}), false)`;
      case 'not':
        return `NOT ${flag(clause.role, clause.flag)}`;
      case 'implies':
        if (clause.when[0] === clause.then[0]) throw new Error('a rule within one side is no swap rule');
        return `(NOT ${flag(...clause.when)} OR ${flag(...clause.then)})`;
      case 'startsWithin': {
        if (clause.trip === clause.windowOf) throw new Error('a trip inside its own window is no swap rule');
        const { startDate } = sides[clause.windowOf];
        const { from, to } = windowSql(sides[clause.windowOf], String(MAX_WINDOW_DAYS), 'this query has no window to look for swaps in');
        const start = sides[clause.trip].startDate;
        // The plain range first, as in constraintSql: an index on either start date can narrow the rows.
        return `${start} BETWEEN ${startDate} - ${MAX_WINDOW_DAYS} AND ${startDate} + ${MAX_WINDOW_DAYS} AND ${start} BETWEEN ${from} AND ${to}`;
      }
      case 'free': {
        if (clause.pilot === clause.takes) throw new Error('a pilot taking their own trip is no swap rule');
        const { otherTripOn } = sides[clause.pilot];
        if (!otherTripOn) throw new Error("this query cannot see the pilot's other trips");
        return `NOT ${otherTripOn(sides[clause.takes].startDate, sides[clause.takes].endDate)}`;
      }
    }
  });
  return where.join('\n         AND ');
}

/** A timestamptz column as the contract writes an instant ('2026-11-04T10:05:00Z'), NULL stays NULL. */
export function instantSql(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;
}

import { MAX_WINDOW_DAYS } from '../domain/compatibility';
import type { Constraint } from '../domain/swap-rule';

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
  /** The trip's own window (tripWindow), where the query looks for askers; it may use `:rule_max`. */
  window?: { from: string; to: string };
}

/**
 * The swap rule with one side known (a Constraint), as a WHERE fragment over the other side's
 * columns with named bindings `:rule_*`. The text depends on the columns and on which side is
 * known, never on the values: the statements stay prepared once per connection.
 */
export function constraintSql(columns: SideColumns, constraint: Constraint): { where: string; bindings: Record<string, unknown> } {
  const where = [
    ':rule_possible',
    `${columns.rank} = ANY(:rule_rank)`,
    `${columns.fleet} = ANY(:rule_fleet)`,
    `${columns.aircraft} = ANY(:rule_aircraft)`,
    `${columns.pilotId} IS DISTINCT FROM :rule_not_pilot`,
    // A flag's binding is null when either value will do.
    `(CAST(:rule_training AS boolean) IS NULL OR ${columns.training} = :rule_training)`,
    `(CAST(:rule_ltc_captain AS boolean) IS NULL OR ${columns.ltcCaptain} = :rule_ltc_captain)`,
    `(CAST(:rule_standby AS boolean) IS NULL OR ${columns.standby} = :rule_standby)`,
  ];
  const bindings: Record<string, unknown> = {
    rule_possible: constraint.possible,
    rule_rank: constraint.rank,
    rule_fleet: constraint.fleet,
    rule_aircraft: constraint.aircraft,
    rule_not_pilot: constraint.notPilotId,
    rule_training: constraint.flags.training,
    rule_ltc_captain: constraint.flags.ltcCaptain,
    rule_standby: constraint.flags.standby,
  };
  const { start } = constraint;
  if (start && 'within' in start) {
    where.push(`${columns.startDate} BETWEEN CAST(:rule_from AS date) AND CAST(:rule_to AS date)`);
    Object.assign(bindings, { rule_from: start.within.from, rule_to: start.within.to });
  } else if (start) {
    if (!columns.window) throw new Error('this query has no window to look for askers in');
    where.push(
      // No window reaches further than :rule_max days from its trip's start: the plain range lets
      // an index on the start date narrow the rows before each window is worked out.
      `${columns.startDate} BETWEEN CAST(:rule_date AS date) - CAST(:rule_max AS int) AND CAST(:rule_date AS date) + CAST(:rule_max AS int)`,
      `${columns.window.from} <= CAST(:rule_date AS date)`,
      `${columns.window.to} >= CAST(:rule_date AS date)`,
    );
    Object.assign(bindings, { rule_date: start.covers, rule_max: MAX_WINDOW_DAYS });
  }
  return { where: where.join('\n         AND '), bindings };
}

import { AIRCRAFT, FLEETS, RANKS, type Aircraft, type Fleet, type Rank } from '@crewswap/proto';
import { aircraftFlownBy, fleetsThatFly, type Window } from './compatibility';

/**
 * The two trips of a swap: the asker's (the trip Find swaps is pressed on, or a swap alert's
 * recipient's trip) and the offer it would find.
 */
type Role = 'asker' | 'offer';

/** One side of a swap as the rule reads it: a pilot and one of their trips. */
interface Side {
  pilotId: string;
  rank: Rank;
  fleet: Fleet;
  ltcCaptain: boolean;
  aircraft: Aircraft | null;
  training: boolean;
  standby: boolean;
  startDate: string;
}

type Flag = 'training' | 'ltcCaptain' | 'standby';

type Clause =
  | { kind: 'same'; field: 'rank' }
  | { kind: 'differ'; field: 'pilotId' }
  | { kind: 'flies'; pilot: Role; trip: Role }
  | { kind: 'not'; role: Role; flag: Flag }
  | { kind: 'implies'; when: readonly [Role, Flag]; then: readonly [Role, Flag] }
  | { kind: 'startsWithin'; trip: Role; windowOf: Role };

/**
 * Who can swap with whom (decisions.md, pilot-app.md), the only place it is written: Find swaps
 * from memory, its SQL fallback and the swap alerts' recipients are all derived from it (through
 * offersFor and askersOf), and test/swap-rule.test.ts holds the three to the same answers.
 */
export const SWAP_RULE: readonly Clause[] = [
  { kind: 'same', field: 'rank' },
  // Pilots never match their own trips.
  { kind: 'differ', field: 'pilotId' },
  // Each pilot must be able to fly the other's trip.
  { kind: 'flies', pilot: 'asker', trip: 'offer' },
  { kind: 'flies', pilot: 'offer', trip: 'asker' },
  // Standby duties never match.
  { kind: 'not', role: 'asker', flag: 'standby' },
  { kind: 'not', role: 'offer', flag: 'standby' },
  // A training trip offered is seen only by LTC captains, and only they could fly one asked with.
  { kind: 'implies', when: ['offer', 'training'], then: ['asker', 'ltcCaptain'] },
  { kind: 'implies', when: ['asker', 'training'], then: ['offer', 'ltcCaptain'] },
  { kind: 'startsWithin', trip: 'offer', windowOf: 'asker' },
];

/**
 * What the rule asks of the other side once one side is known: the form every caller runs
 * (buckets and a bit mask in memory, a WHERE clause in SQL).
 */
export interface Constraint {
  /** False when the known side alone rules out every swap (a standby duty, a trip nobody can fly). */
  possible: boolean;
  rank: Rank[];
  fleet: Fleet[];
  aircraft: Aircraft[];
  notPilotId: string | null;
  /** The value each flag must have; null when either will do. */
  flags: Record<Flag, boolean | null>;
  /**
   * Known asker: the offer starts inside this window. Known offer: the asker's own window covers
   * this date. Null: any date.
   */
  start: { within: Window } | { covers: string } | null;
}

type PilotFacts = { id: string; rank: Rank; fleet: Fleet; ltc: boolean };
type TripFacts = { aircraft: Aircraft | null; training: boolean; isStandby: boolean; startDate: string };

/** The offers an asker's trip finds in this window (Find swaps). */
export function offersFor(query: { asker: PilotFacts; trip: TripFacts; window: Window }): Constraint {
  return constrain('asker', sideOf(query.asker, query.trip), query.window);
}

/** The trips that would find this offer, each in its own window (tripWindow): the swap alert's recipients. */
export function askersOf(query: { owner: PilotFacts; offer: TripFacts }): Constraint {
  return constrain('offer', sideOf(query.owner, query.offer), undefined);
}

/** The rule with one side known, clause by clause. */
function constrain(known: Role, side: Side, window: Window | undefined): Constraint {
  const c: Constraint = {
    possible: true,
    rank: [...RANKS],
    fleet: [...FLEETS],
    aircraft: [...AIRCRAFT],
    notPilotId: null,
    flags: { training: null, ltcCaptain: null, standby: null },
    start: null,
  };
  const require = (flag: Flag, value: boolean) => {
    if (c.flags[flag] === !value) c.possible = false;
    c.flags[flag] = value;
  };
  for (const clause of SWAP_RULE) {
    switch (clause.kind) {
      case 'same':
        c.rank = c.rank.filter((rank) => rank === side.rank);
        break;
      case 'differ':
        c.notPilotId = side.pilotId;
        break;
      case 'flies':
        if (clause.pilot === clause.trip) throw new Error('a pilot flying their own trip is no swap rule');
        if (clause.pilot === known) {
          const flown = aircraftFlownBy(side.fleet);
          c.aircraft = c.aircraft.filter((aircraft) => flown.includes(aircraft));
        } else {
          const flying = side.aircraft === null ? [] : fleetsThatFly(side.aircraft);
          c.fleet = c.fleet.filter((fleet) => flying.includes(fleet));
        }
        break;
      case 'not':
        if (clause.role === known) c.possible &&= !side[clause.flag];
        else require(clause.flag, false);
        break;
      case 'implies': {
        const [whenRole, whenFlag] = clause.when;
        const [thenRole, thenFlag] = clause.then;
        if (whenRole === thenRole) throw new Error('a rule within one side is no swap rule');
        // Known condition: its consequence binds the other side. Known consequence: if it fails,
        // the other side must not meet the condition.
        if (whenRole === known) {
          if (side[whenFlag]) require(thenFlag, true);
        } else if (!side[thenFlag]) {
          require(whenFlag, false);
        }
        break;
      }
      case 'startsWithin':
        if (clause.trip === clause.windowOf) throw new Error('a trip inside its own window is no swap rule');
        if (clause.windowOf === known) {
          if (!window) throw new Error("the asker's window is needed to find its offers");
          c.start = { within: window };
        } else {
          c.start = { covers: side.startDate };
        }
        break;
    }
  }
  c.possible &&= c.rank.length > 0 && c.fleet.length > 0 && c.aircraft.length > 0;
  return c;
}

/** LTC captains alone may fly, and see, training trips offered for swap. */
function isLtcCaptain(pilot: { rank: Rank; ltc: boolean }): boolean {
  return pilot.rank === 'CP' && pilot.ltc;
}

/** A pilot and one of their trips, as the rule reads them. */
function sideOf(pilot: PilotFacts, trip: TripFacts): Side {
  return {
    pilotId: pilot.id,
    rank: pilot.rank,
    fleet: pilot.fleet,
    ltcCaptain: isLtcCaptain(pilot),
    aircraft: trip.aircraft,
    training: trip.training,
    standby: trip.isStandby,
    startDate: trip.startDate,
  };
}

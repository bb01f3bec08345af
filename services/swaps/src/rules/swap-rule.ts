import {
  AIRCRAFT,
  aircraftFlownBy,
  FLEETS,
  fleetsThatFly,
  isLtcCaptain,
  londonToday,
  RANKS,
  tripWindow,
  URGENT_HOURS,
  type Aircraft,
  type Fleet,
  type Rank,
  type SwapWindow as Window,
} from '@crewswap/proto';

/**
 * The two trips of a swap: the asker's (the trip Find swaps is pressed on, or a swap alert's
 * recipient's trip) and the offer it would find.
 */
export type Role = 'asker' | 'offer';

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
  endDate: string;
  /** The days of the pilot's other trips (standby duties included), where a clause needs them. */
  otherTrips?: readonly DayRange[];
}

/** A trip's days, first and last included (YYYY-MM-DD). */
export interface DayRange {
  from: string;
  to: string;
}

export type Flag = 'training' | 'ltcCaptain' | 'standby';

export type Clause =
  | { kind: 'same'; field: 'rank' }
  | { kind: 'differ'; field: 'pilotId' }
  | { kind: 'flies'; pilot: Role; trip: Role }
  | { kind: 'not'; role: Role; flag: Flag }
  | { kind: 'implies'; when: readonly [Role, Flag]; then: readonly [Role, Flag] }
  | { kind: 'startsWithin'; trip: Role; windowOf: Role }
  // The pilot has no other trip on the days of the trip they would take.
  | { kind: 'free'; pilot: Role; takes: Role };

/**
 * Who can swap with whom (decisions.md, pilot-app.md), the only place it is written: Find swaps
 * from memory, its SQL fallback and the swap alerts' recipients are all derived from it (through
 * offersFor and askersOf), the daily digest too (ruleJoinSql, many offers at once), and
 * test/swap-rule.test.ts holds them all to the same answers.
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

const otherRole = (role: Role): Role => (role === 'asker' ? 'offer' : 'asker');

/** A clause with the two roles swapped: what it asks when the offer's owner is the one asking. */
function mirrored(clause: Clause): Clause {
  switch (clause.kind) {
    case 'same':
    case 'differ':
      return clause;
    case 'flies':
      return { kind: 'flies', pilot: otherRole(clause.pilot), trip: otherRole(clause.trip) };
    case 'not':
      return { kind: 'not', role: otherRole(clause.role), flag: clause.flag };
    case 'implies':
      return { kind: 'implies', when: [otherRole(clause.when[0]), clause.when[1]], then: [otherRole(clause.then[0]), clause.then[1]] };
    case 'startsWithin':
      return { kind: 'startsWithin', trip: otherRole(clause.trip), windowOf: otherRole(clause.windowOf) };
    case 'free':
      return { kind: 'free', pilot: otherRole(clause.pilot), takes: otherRole(clause.takes) };
  }
}

/**
 * Mutual (issue 37): the swap works for the offer's owner too. The rule holds both ways (rank,
 * fleet and aircraft, training, and the asker's trip inside the owner's window for that offer:
 * their search range, else the swap window around it), and neither pilot is left with two trips
 * on one day. Find swaps marks its rows with it (offer index and SQL fallback alike, through
 * mutualOffersFor); isMutual answers it for any two trips.
 */
export const MUTUAL_RULE: readonly Clause[] = [
  ...SWAP_RULE,
  ...SWAP_RULE.map(mirrored),
  { kind: 'free', pilot: 'asker', takes: 'offer' },
  { kind: 'free', pilot: 'offer', takes: 'asker' },
];

/** Whether a clause reads the asker's trip (not only the asker as a pilot). */
function readsAskersTrip(clause: Clause): boolean {
  const tripFlag = (flag: Flag) => flag !== 'ltcCaptain';
  switch (clause.kind) {
    case 'flies':
      return clause.trip === 'asker';
    case 'not':
      return clause.role === 'asker' && tripFlag(clause.flag);
    case 'implies':
      return (clause.when[0] === 'asker' && tripFlag(clause.when[1])) || (clause.then[0] === 'asker' && tripFlag(clause.then[1]));
    case 'startsWithin':
      return clause.trip === 'asker';
    case 'free':
      return clause.takes === 'asker';
    default:
      return false;
  }
}

/**
 * The one-way swap rule (issue 53): a pilot picking up a give-away takes the offer and gives no
 * trip, so of SWAP_RULE only what asks of the offer and of the asker as a pilot holds (rank, the
 * aircraft they fly, the LTC rule, the window), and they must hold no trip on its days. Pick up a
 * trip lists by it and a pick-up proposal is checked by it (giveawaysFor).
 */
export const GIVEAWAY_RULE: readonly Clause[] = [...SWAP_RULE.filter((clause) => !readsAskersTrip(clause)), { kind: 'free', pilot: 'asker', takes: 'offer' }];

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
  /** The other side's trip starts inside this window (the known side's). Null: any date. */
  startsWithin: Window | null;
  /** The other side's own window (tripWindow) covers this date (the known trip's start). Null: any. */
  windowCovers: string | null;
  /** The other side's trip falls on none of these days (the known pilot's other trips). Null: any. */
  missesDays: readonly DayRange[] | null;
  /** The other side's pilot has no other trip on these days (the known trip's). Null: any. */
  freeOn: DayRange | null;
}

type PilotFacts = { id: string; rank: Rank; fleet: Fleet; ltc: boolean };
type TripFacts = { aircraft: Aircraft | null; training: boolean; isStandby: boolean; startDate: string; endDate: string };

/** The offers an asker's trip finds in this window (Find swaps). */
export function offersFor(query: { asker: PilotFacts; trip: TripFacts; window: Window }): Constraint {
  return constrain(SWAP_RULE, 'asker', sideOf(query.asker, query.trip), query.window);
}

/**
 * Of the offers an asker's trip finds in this window, the Mutual ones (MUTUAL_RULE): it needs the
 * days of the asker's other trips.
 */
export function mutualOffersFor(query: { asker: PilotFacts; trip: TripFacts; window: Window; askerOtherTrips: readonly DayRange[] }): Constraint {
  return constrain(MUTUAL_RULE, 'asker', { ...sideOf(query.asker, query.trip), otherTrips: query.askerOtherTrips }, query.window);
}

/** The trips that would find this offer, each in its own window (tripWindow): the swap alert's recipients. */
export function askersOf(query: { owner: PilotFacts; offer: TripFacts }): Constraint {
  return constrain(SWAP_RULE, 'offer', sideOf(query.owner, query.offer), undefined);
}

/**
 * The give-aways a pilot could pick up starting inside this window, never on the days of a trip
 * they hold (`trips`: all their live trips, standby duties included).
 */
export function giveawaysFor(query: { asker: PilotFacts; window: Window; trips: readonly DayRange[] }): Constraint {
  // GIVEAWAY_RULE never reads the asker's trip: the picker gives none, so theirs is left empty.
  const noTrip: TripFacts = { aircraft: null, training: false, isStandby: false, startDate: query.window.from, endDate: query.window.from };
  return constrain(GIVEAWAY_RULE, 'asker', { ...sideOf(query.asker, noTrip), otherTrips: query.trips }, query.window);
}

/** One side of a swap in full, as isMutual reads it. */
export interface SwapSide {
  pilot: PilotFacts & { searchDayRange: number | null };
  trip: TripFacts & { searchStartDate: string | null; searchEndDate: string | null };
  /** The days of the pilot's other trips (not this one), standby duties included. */
  otherTrips: readonly DayRange[];
}

/**
 * Whether the asker's trip and the offer make a Mutual swap (MUTUAL_RULE), each trip's window
 * its own (tripWindow) unless the asker searched with other dates. For callers that hold both
 * sides (a proposal); Find swaps asks the same of every row through mutualOffersFor.
 */
export function isMutual(swap: { asker: SwapSide; offer: SwapSide; settingDays: number; askerWindow?: Window }): boolean {
  const { asker, offer, settingDays } = swap;
  const window = swap.askerWindow ?? tripWindow(asker.trip, asker.pilot.searchDayRange, settingDays);
  const c = mutualOffersFor({ asker: asker.pilot, trip: asker.trip, window, askerOtherTrips: asker.otherTrips });
  const side = sideOf(offer.pilot, offer.trip);
  const ownWindow = tripWindow(offer.trip, offer.pilot.searchDayRange, settingDays);
  return (
    c.possible &&
    c.rank.includes(side.rank) &&
    c.fleet.includes(side.fleet) &&
    side.aircraft !== null &&
    c.aircraft.includes(side.aircraft) &&
    c.notPilotId !== side.pilotId &&
    (Object.keys(c.flags) as Flag[]).every((flag) => c.flags[flag] === null || c.flags[flag] === side[flag]) &&
    (c.startsWithin === null || (side.startDate >= c.startsWithin.from && side.startDate <= c.startsWithin.to)) &&
    (c.windowCovers === null || (ownWindow.from <= c.windowCovers && ownWindow.to >= c.windowCovers)) &&
    (c.missesDays === null || !c.missesDays.some((days) => overlaps(days, { from: side.startDate, to: side.endDate }))) &&
    (c.freeOn === null || !offer.otherTrips.some((days) => overlaps(days, c.freeOn!)))
  );
}

/** Whether two runs of days share one. */
export function overlaps(a: DayRange, b: DayRange): boolean {
  return a.from <= b.to && a.to >= b.from;
}

/** An offer starting within URGENT_HOURS (48, in proto) is Urgent in Find swaps and its alert (issue 39). */
export { URGENT_HOURS };

/**
 * The start dates that are Urgent now: today up to the date URGENT_HOURS from now, on the
 * Europe/London clock. A trip is known by its dates, not its hour, so one starting today counts.
 */
export function urgentDates(now: Date): DayRange {
  return { from: londonToday(now), to: londonToday(new Date(now.getTime() + URGENT_HOURS * 3_600_000)) };
}

/** Whether an offer starting on this date is Urgent now. */
export function isUrgent(startDate: string, now: Date): boolean {
  const { from, to } = urgentDates(now);
  return startDate >= from && startDate <= to;
}

/** The rule with one side known, clause by clause. */
function constrain(rule: readonly Clause[], known: Role, side: Side, window: Window | undefined): Constraint {
  const c: Constraint = {
    possible: true,
    rank: [...RANKS],
    fleet: [...FLEETS],
    aircraft: [...AIRCRAFT],
    notPilotId: null,
    flags: { training: null, ltcCaptain: null, standby: null },
    startsWithin: null,
    windowCovers: null,
    missesDays: null,
    freeOn: null,
  };
  const require = (flag: Flag, value: boolean) => {
    if (c.flags[flag] === !value) c.possible = false;
    c.flags[flag] = value;
  };
  for (const clause of rule) {
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
          c.startsWithin = window;
        } else {
          c.windowCovers = side.startDate;
        }
        break;
      case 'free':
        if (clause.pilot === clause.takes) throw new Error('a pilot taking their own trip is no swap rule');
        if (clause.pilot === known) {
          if (!side.otherTrips) throw new Error("the known pilot's other trips are needed for this rule");
          c.missesDays = side.otherTrips;
        } else {
          c.freeOn = { from: side.startDate, to: side.endDate };
        }
        break;
    }
  }
  c.possible &&= c.rank.length > 0 && c.fleet.length > 0 && c.aircraft.length > 0;
  return c;
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
    endDate: trip.endDate,
  };
}

import type { SwapAgreement, SwapSide } from './proposals';

/** The zod-free words of swap proposals (the browser bundle takes them from here). */
export const MAX_PROPOSAL_NOTE = 200;
export const MAX_DECLINE_REASON = 200;
/** Crewing's reason for refusing a swap request (here, not in proposals.ts, so the browser bundle can read it without zod). */
export const MAX_REFUSAL_REASON = 200;

export const PROPOSAL_MESSAGES = {
  /** POST /api/swaps/agreements/{id}/crewing is gone (410): crewing decides at the desk. */
  crewingDecides: 'Crewing now approves or refuses swaps in the CrewSwap console: the request shows its status here once they have decided.',
  /** The crewing desk's 409s (issue 53). */
  requestNotPending: 'This swap request has already been decided.',
  requestTripChanged: 'One of the trips has changed or been removed since the pilots agreed: the swap cannot be approved as agreed.',
  requestWouldOverlap: 'Approving would give a pilot two overlapping trips.',
  requestNotFound: 'Swap request not found',
  /** A pick-up (myTripId null) of a trip offered only for a swap. */
  notAGiveaway: 'This trip is offered for a swap only: choose one of your trips to give.',
  /** A swap proposed for a trip offered only as a give-away. */
  giveawayOnly: 'This trip is offered as a give-away only: pick it up instead of offering a trip for it.',
  /** A pick-up the one-way swap rule does not allow. */
  pickUpNotCompatible: 'You cannot pick up this trip: check rank, aircraft, and that you hold no trip on its days.',
  /** The owner answers a pick-up by accepting or declining it: there is no trip of the picker's to counter. */
  noCounterOnPickUp: 'A pick-up cannot be countered: accept or decline it.',
  proposalNotFound: 'Proposal not found',
  agreementNotFound: 'Swap agreement not found',
  offerNotFound: 'This trip is no longer offered for swap.',
  myTripNotFound: 'Trip not found',
  ownTrip: 'You cannot propose a swap for your own trip.',
  notCompatible: 'These two trips cannot be swapped: check rank, fleet, aircraft and dates.',
  started: 'This trip has already started.',
  alreadyProposed: 'You have already proposed this swap.',
  notOpen: 'This proposal is no longer open.',
  offerWithdrawn: 'This trip is no longer offered',
  proposerTripGone: 'The other pilot no longer has this trip',
  withdrawn: 'The other pilot has withdrawn this proposal.',
  alreadyAccepted: 'This proposal has already been accepted: the swap is agreed. Cancel the swap instead.',
  tripTaken: 'One of these trips is already in an agreed swap.',
  tripNoLongerAvailable: 'Trip no longer available',
  counterNotFound: 'Choose one of your own trips to offer instead.',
  counterSame: 'Choose another of your trips to offer instead.',
  counterNotCompatible: "This trip does not fit the other pilot's trip: check rank, fleet, aircraft and dates.",
  notCancellable: 'This swap can no longer be cancelled.',
  crewingAnswered: 'Crewing has already answered for this swap.',
  notAgreed: 'This swap is not agreed.',
  notReady: 'Your profile is still being set up. Please try again in a moment.',
} as const;

/** Why an open proposal closed by itself (its `reason`). */
export const EXPIRY_REASONS = {
  started: 'Trip has started',
  changed: 'Trip changed',
  deleted: 'Trip no longer available',
} as const;

/** Push titles (and the bell's words). */
export const PROPOSAL_NOTICES = {
  proposed: 'New swap proposal',
  declined: 'Swap proposal declined',
  agreed: 'Swap agreed',
  cancelled: 'Swap cancelled',
  approved: 'Swap approved by crewing',
  refused: 'Swap refused by crewing',
} as const;

/** What the app shows on a trip in an agreed swap. */
export const AWAITING_CREWING = 'Swap agreed — awaiting crewing';


/** A trip in one line: flights, route, aircraft and dates. */
export function tripLine(trip: SwapSide['trip']): string {
  const dates = trip.startDate === trip.endDate ? trip.startDate : `${trip.startDate} to ${trip.endDate}`;
  return `${trip.flightNoStart}/${trip.flightNoEnd} ${trip.route}${trip.aircraft ? ` (${trip.aircraft})` : ''}, ${dates}`;
}

/** A trip in a short phrase: 'VS025/VS026 JFK 12-15 Jan' (a notice's words). */
export function tripPhrase(trip: SwapSide['trip']): string {
  const [, startMonth, startDay] = trip.startDate.split('-').map(Number) as [number, number, number];
  const [, endMonth, endDay] = trip.endDate.split('-').map(Number) as [number, number, number];
  const month = (value: number) => MONTHS[value - 1];
  const dates =
    trip.startDate === trip.endDate ? `${startDay} ${month(startMonth)}` : startMonth === endMonth ? `${startDay}-${endDay} ${month(endMonth)}` : `${startDay} ${month(startMonth)}-${endDay} ${month(endMonth)}`;
  return `${trip.flightNoStart}/${trip.flightNoEnd} ${trip.route} ${dates}`;
}
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

export const pilotName = (side: Pick<SwapSide, 'pilot'>) => `${side.pilot.firstName} ${side.pilot.lastName}`;

/**
 * The crewing request of an agreed swap, line by line: the mail's body and the app's printable
 * page say the same thing. Each pilot gives their own trip and takes the other's; in a give-away
 * the proposer picks up the owner's trip and gives none.
 */
export function crewingRequestLines(agreement: Pick<SwapAgreement, 'proposer' | 'owner' | 'agreedAt'>): string[] {
  const side = (label: string, giver: Pick<SwapSide, 'pilot'> & { trip: SwapSide['trip'] | null }, taken: SwapSide['trip'] | null) => [
    `${label}: ${pilotName(giver)}, staff number ${giver.pilot.employeeId}, ${giver.pilot.rank} ${giver.pilot.fleet} ${giver.pilot.base}`,
    ...(giver.trip ? [`Gives trip: ${tripLine(giver.trip)}`, `Duty: ${giver.trip.icsDescription?.trim() || 'none recorded'}`] : ['Gives trip: none (picks up a give-away)']),
    `Takes trip: ${taken ? tripLine(taken) : 'none (gives the trip away)'}`,
  ];
  const giveaway = agreement.proposer.trip === null;
  return [
    giveaway ? 'Trip give-away request, agreed by both pilots in CrewSwap.' : 'Trip swap request, agreed by both pilots in CrewSwap.',
    `Agreed: ${agreement.agreedAt.slice(0, 16).replace('T', ' ')} UTC`,
    '',
    ...side('Pilot 1', agreement.proposer, agreement.owner.trip),
    '',
    ...side('Pilot 2', agreement.owner, agreement.proposer.trip),
    '',
    'Please approve or refuse this request at the crewing desk (Swap Requests) in the CrewSwap console.',
  ];
}

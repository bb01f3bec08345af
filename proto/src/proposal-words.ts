import type { SwapAgreement, SwapSide } from './proposals';

/** The zod-free words of swap proposals (the browser bundle takes them from here). */
export const MAX_PROPOSAL_NOTE = 200;
export const MAX_DECLINE_REASON = 200;

export const PROPOSAL_MESSAGES = {
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

export const pilotName = (side: SwapSide) => `${side.pilot.firstName} ${side.pilot.lastName}`;

/**
 * The crewing request of an agreed swap, line by line: the mail's body and the app's printable
 * page say the same thing. Each pilot gives their own trip and takes the other's.
 */
export function crewingRequestLines(agreement: Pick<SwapAgreement, 'proposer' | 'owner' | 'agreedAt'>): string[] {
  const side = (label: string, giver: SwapSide, taker: SwapSide) => [
    `${label}: ${pilotName(giver)}, staff number ${giver.pilot.employeeId}, ${giver.pilot.rank} ${giver.pilot.fleet} ${giver.pilot.base}`,
    `Gives trip: ${tripLine(giver.trip)}`,
    `Duty: ${giver.trip.icsDescription?.trim() || 'none recorded'}`,
    `Takes trip: ${tripLine(taker.trip)}`,
  ];
  return [
    'Trip swap request, agreed by both pilots in CrewSwap.',
    `Agreed: ${agreement.agreedAt.slice(0, 16).replace('T', ' ')} UTC`,
    '',
    ...side('Pilot 1', agreement.proposer, agreement.owner),
    '',
    ...side('Pilot 2', agreement.owner, agreement.proposer),
    '',
    'Please approve or refuse this swap; either pilot records the answer in CrewSwap.',
  ];
}

import type { PilotContact, SwapRequest, Trip } from '@crewswap/proto';

export const STATUS_LABELS: Record<SwapRequest['status'], string> = { pending: 'Pending', approved: 'Approved', refused: 'Refused' };
export const STATUS_COLORS: Record<SwapRequest['status'], string> = { pending: 'gold', approved: 'green', refused: 'red' };

export const nameOf = (pilot: Pick<PilotContact, 'firstName' | 'lastName'>) => `${pilot.firstName} ${pilot.lastName}`;

/** 'VS025/VS026 JFK' */
export const flightsOf = (trip: Pick<Trip, 'flightNoStart' | 'flightNoEnd' | 'route'>) => `${trip.flightNoStart}/${trip.flightNoEnd} ${trip.route}`;

/** 'Jane Smith and John Doe' (a swap), 'Give-away: John Doe to Jane Smith'. */
export function requestTitle(request: Pick<SwapRequest, 'kind' | 'proposer' | 'owner'>): string {
  const proposer = nameOf(request.proposer.pilot);
  const owner = nameOf(request.owner.pilot);
  return request.kind === 'giveaway' ? `Give-away: ${owner} to ${proposer}` : `${proposer} and ${owner}`;
}

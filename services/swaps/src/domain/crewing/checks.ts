import { tripLine, type PilotContact, type SwapAgreement, type Trip, type TripMove } from '@crewswap/proto';
import type { OverlapQuestion, SwapRequestRepository } from '../../data/swap-requests';
import type { Executor } from '@crewswap/kit';
import { tripKey } from '../../rules/trip-key';

/** What crewing must know before approving: a trip changed or gone since the agreement, a pilot who would clash. */
const nameOf = (pilot: PilotContact) => `${pilot.firstName} ${pilot.lastName}`;

export interface RequestProblems {
  changed: string[];
  overlaps: string[];
}

/** The trips that change hands: the proposer's (none in a give-away) to the owner, the owner's to the proposer. */
export function movesOf(agreement: SwapAgreement): TripMove[] {
  const { proposer, owner } = agreement;
  return [
    ...(proposer.trip ? [{ tripId: proposer.trip.id, fromPilotId: proposer.pilot.id, toPilotId: owner.pilot.id }] : []),
    { tripId: owner.trip.id, fromPilotId: owner.pilot.id, toPilotId: proposer.pilot.id },
  ];
}

/**
 * Compares each trip in swaps' read model with the agreement's snapshot (flights, dates, route,
 * aircraft and owner), and asks whether either pilot would hold two overlapping trips after the
 * move. The read model follows trips by events, so a change a moment old may not show yet: trips
 * applies the move it is told of whatever it holds then.
 */
export async function problemsOf(requests: SwapRequestRepository, agreements: SwapAgreement[], ex?: Executor): Promise<RequestProblems[]> {
  const sides = agreements.map((agreement) => [agreement.proposer, agreement.owner].filter((side): side is SwapAgreement['owner'] => side.trip !== null));
  const current = await requests.currentTrips(sides.flat().map((side) => side.trip.id), ex);
  const questions: OverlapQuestion[][] = agreements.map((agreement) => {
    const { proposer, owner } = agreement;
    return [
      { pilotId: proposer.pilot.id, incoming: owner.trip, leaving: proposer.trip?.id ?? null },
      ...(proposer.trip ? [{ pilotId: owner.pilot.id, incoming: proposer.trip, leaving: owner.trip.id }] : []),
    ];
  });
  const clashes = await requests.overlaps(questions.flat(), ex);
  let next = 0;
  return agreements.map((agreement, index) => {
    const changed = sides[index]!.filter((side) => {
      const now = current.get(side.trip.id);
      return !now || now.deleted || now.pilotId !== side.pilot.id || tripKey(now.trip) !== tripKey(side.trip);
    }).map((side) => `${nameOf(side.pilot)}'s trip ${tripLine(side.trip)} has changed or been removed since the agreement.`);
    const overlaps = questions[index]!.flatMap((question) => {
      const clash: Trip | null = clashes[next++] ?? null;
      if (!clash) return [];
      const pilot = question.pilotId === agreement.proposer.pilot.id ? agreement.proposer.pilot : agreement.owner.pilot;
      return [`${nameOf(pilot)} would hold two overlapping trips: ${tripLine(question.incoming)} and ${tripLine(clash)}.`];
    });
    return { changed, overlaps };
  });
}

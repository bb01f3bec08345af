import { randomUUID } from 'node:crypto';
import { badRequest, conflict, isUniqueViolation, notFound, unavailable, type Clock, type Db } from '@crewswap/kit';
import { PROPOSAL_MESSAGES, SUBJECTS, type ProposeSwapBody, type SwapProposal } from '@crewswap/proto';
import type { GiveawayRepository } from '../../data/giveaways';
import type { NewProposal, ProposalRepository, SideRow } from '../../data/proposals';
import { giveawaysFor, type Constraint } from '../../rules/swap-rule';
import type { ProposalEvents } from './events';
import type { SwapSides } from './sides';
import type { SwapCheck } from '../swap-legality';

/**
 * Propose Swap: my trip (the one Find swaps was pressed on) for another pilot's offered trip; or,
 * with no trip of mine (`myTripId: null`), pick up a give-away (issue 53). Two round trips: both
 * sides read, then the proposal and its event written in one statement if the rule allows it (the
 * swap rule, or the one-way rule for a pick-up), with no transaction needed around it.
 */
export function createProposeSwap(deps: {
  db: Db;
  proposals: ProposalRepository;
  giveaways: GiveawayRepository;
  sides: SwapSides;
  events: ProposalEvents;
  clock: Clock;
  /** Reads, and for a while reads again, until the answer is found: the read model learns of trips and pilots from events. */
  awaitTrips: <T>(read: () => Promise<T>, found: (value: T) => boolean) => Promise<T>;
  /** The flight time limitations (issue 55): a swap either pilot may not fly is refused (409). */
  swapCheck: Pick<SwapCheck, 'refuseIfIllegal'>;
}) {
  const { db, proposals, giveaways, sides, events, clock, awaitTrips, swapCheck } = deps;

  /** The offered trip, still offered and not the proposer's own. */
  function offeredTrip(offered: SideRow | undefined, pilotId: string): SideRow {
    if (!offered || !offered.isSwappable) throw notFound(PROPOSAL_MESSAGES.offerNotFound);
    if (offered.trip.pilotId === pilotId) throw badRequest(PROPOSAL_MESSAGES.ownTrip);
    return offered;
  }

  async function insert(proposal: Omit<NewProposal, 'id' | 'counterOf' | 'at'>, fits: Constraint, pilotId: string, misfit: string): Promise<SwapProposal> {
    try {
      const made = await proposals.insertIfFits(
        { ...proposal, id: randomUUID(), counterOf: null, at: clock.now() },
        fits,
        (row) => events.proposalRows(SUBJECTS.proposalMade, row, pilotId),
        db,
      );
      if (!made) throw badRequest(misfit);
      events.written(db);
      return made;
    } catch (error) {
      if (isUniqueViolation(error, 'proposals_one_open')) throw conflict(PROPOSAL_MESSAGES.alreadyProposed);
      throw error;
    }
  }

  async function swap(input: { pilotId: string; body: ProposeSwapBody & { myTripId: string } }): Promise<SwapProposal> {
    const { offeredTripId, myTripId } = input.body;
    // A trip offered (or added, or a pilot registered) a moment ago may still be on its way
    // from trips (auth): waited for, rather than refused as not offered. Read once, as nearly always.
    const { byTrip, settingDays } = await awaitTrips(
      () => sides.read([myTripId, offeredTripId], db),
      (read) => {
        const [mine, offered] = [read.byTrip.get(myTripId), read.byTrip.get(offeredTripId)];
        return mine?.record !== undefined && offered?.record !== undefined && offered.isSwappable;
      },
    );
    const mine = sides.check(byTrip.get(myTripId), { pilotId: input.pilotId, missing: PROPOSAL_MESSAGES.myTripNotFound });
    const offered = offeredTrip(byTrip.get(offeredTripId), input.pilotId);
    // A give-away is not a swap offer (Find swaps does not show it): it is picked up.
    if (offered.offerType === 'giveaway') throw conflict(PROPOSAL_MESSAGES.giveawayOnly);
    const theirs = sides.check(offered, { pilotId: offered.trip.pilotId, missing: PROPOSAL_MESSAGES.offerNotFound });
    await swapCheck.refuseIfIllegal({ proposer: { pilotId: input.pilotId, trip: mine.trip }, owner: { pilotId: theirs.pilot.id, trip: theirs.trip } }, db);
    return insert(
      { proposer: { pilot: mine.pilot, trip: mine.trip }, owner: { pilot: theirs.pilot, trip: theirs.trip }, note: input.body.note || null, mutual: sides.mutual(mine, theirs, settingDays) },
      sides.fitting(mine, settingDays),
      input.pilotId,
      PROPOSAL_MESSAGES.notCompatible,
    );
  }

  async function pickUp(input: { pilotId: string; body: ProposeSwapBody }): Promise<SwapProposal> {
    const { offeredTripId } = input.body;
    const { byTrip, picker } = await awaitTrips(
      async () => ({ byTrip: (await sides.read([offeredTripId], db)).byTrip, picker: await giveaways.picker(input.pilotId, db) }),
      (read) => read.picker.record !== undefined && read.byTrip.get(offeredTripId)?.record !== undefined && read.byTrip.get(offeredTripId)!.isSwappable,
    );
    const offered = offeredTrip(byTrip.get(offeredTripId), input.pilotId);
    if (offered.offerType === 'swap') throw conflict(PROPOSAL_MESSAGES.notAGiveaway);
    const theirs = sides.check(offered, { pilotId: offered.trip.pilotId, missing: PROPOSAL_MESSAGES.offerNotFound });
    if (!picker.record || picker.record.deleted) throw unavailable(PROPOSAL_MESSAGES.notReady);
    // The pick-up names its trip: the window is the day it starts, as Pick up a trip listed it.
    const window = { from: offered.trip.startDate, to: offered.trip.startDate };
    await swapCheck.refuseIfIllegal({ proposer: { pilotId: input.pilotId, trip: null }, owner: { pilotId: theirs.pilot.id, trip: theirs.trip } }, db);
    return insert(
      { proposer: { pilot: picker.record.contact, trip: null }, owner: { pilot: theirs.pilot, trip: theirs.trip }, note: input.body.note || null, mutual: false },
      giveawaysFor({ asker: picker.record, window, trips: picker.trips }),
      input.pilotId,
      PROPOSAL_MESSAGES.pickUpNotCompatible,
    );
  }

  return {
    async execute(input: { pilotId: string; body: ProposeSwapBody }): Promise<SwapProposal> {
      const { myTripId } = input.body;
      return myTripId === null ? pickUp(input) : swap({ ...input, body: { ...input.body, myTripId } });
    },
  };
}
export type ProposeSwap = ReturnType<typeof createProposeSwap>;

import { conflict, type Executor } from '@crewswap/kit';
import type { FlightTimeLimits, Legality, Trip, TripTimes } from '@crewswap/proto';
import type { OfferChecks } from '../data/read-model';
import { legalityJson, refusalOf, swapChecker, timesOf, type RosterOf } from '../rules/legality';

/**
 * The flight time limitations of one Find swaps request (issue 55). The asker's side is checked
 * as rows are written (their roster is in hand); an owner's side only for offers the swap rule
 * finds Mutual, whose owners' rosters are read once a pass (`ownersRead`): the caller asks its
 * offers again while that finds someone new, so that an offer its owner may not swap is not Mutual.
 */
export function swapLegality(input: {
  asker: RosterOf;
  trip: Trip;
  limits: FlightTimeLimits;
  legalOnly: boolean;
  rosters: (pilotIds: string[]) => Promise<Map<string, RosterOf>>;
}) {
  const { limits } = input;
  // The searched trip as the asker's roster holds it: a held roster's trips are the same objects
  // from one request to the next, so the owners' checks of taking it are kept too (swapChecker).
  const searched = input.asker.roster.find((trip) => trip.id === input.trip.id) ?? timesOf(input.trip);
  const askerCheck = swapChecker(input.asker, searched, limits);
  // The searched trip without times: every owner's side is unknown, none is read.
  const searchedKnown = searched.sectors !== null || (searched.reportAt !== null && searched.releaseAt !== null);
  /** Owners' checks of taking the searched trip, by owner and offer; owners asked for and not read yet. */
  const ownerChecks = new Map<string, (given: TripTimes) => Legality>();
  const wanted = new Set<string>();

  const checks: OfferChecks = {
    stillMutual(offer, ownerId) {
      if (askerCheck(offer).legal === false) return false;
      if (!searchedKnown) return true;
      const check = ownerChecks.get(ownerId);
      if (!check) {
        wanted.add(ownerId);
        return true;
      }
      return check(offer).legal !== false;
    },
    hidden: input.legalOnly ? (offer) => askerCheck(offer).legal === false : undefined,
    rowEnd: (offer) => legalityJson(askerCheck(offer)),
  };

  return {
    checks,
    /** Reads the rosters of the owners asked about since the last call; whether there were any. */
    async ownersRead(): Promise<boolean> {
      if (wanted.size === 0) return false;
      const ids = [...wanted];
      wanted.clear();
      const rosters = await input.rosters(ids);
      for (const id of ids) {
        const owner = rosters.get(id) ?? { roster: [], base: '' };
        // The owner takes the searched trip and gives the offer away: checked per offer, kept by swapChecker.
        ownerChecks.set(id, (given) => swapChecker(owner, given, limits)(searched));
      }
      return true;
    },
  };
}

/** Both pilots of a swap: the proposer takes the owner's trip and gives theirs (none for a pick-up); the owner the reverse. */
export interface SwapParties {
  proposer: { pilotId: string; trip: Trip | null };
  owner: { pilotId: string; trip: Trip };
}
export interface SwapLegality {
  proposer: Legality;
  /** Null for a pick-up: the owner takes nothing. */
  owner: Legality | null;
}

/**
 * The check proposing, accepting and the crewing desk make of a swap (issue 55), on each pilot's
 * roster in the read model as it would be after the move; an illegal one is refused with the
 * limits' sentences (409), an unknown one goes through.
 */
export function createSwapCheck(deps: {
  /** The pilots' rosters and the limits, read in one statement (an accept reads them inside its transaction). */
  read: (pilotIds: string[], ex?: Executor) => Promise<{ rosters: Map<string, RosterOf>; limits: FlightTimeLimits }>;
}) {
  async function check(swaps: SwapParties[], ex?: Executor): Promise<SwapLegality[]> {
    if (swaps.length === 0) return [];
    const { rosters, limits } = await deps.read([...new Set(swaps.flatMap((swap) => [swap.proposer.pilotId, swap.owner.pilotId]))], ex);
    const of = (pilotId: string): RosterOf => rosters.get(pilotId) ?? { roster: [], base: '' };
    return swaps.map(({ proposer, owner }) => ({
      proposer: swapChecker(of(proposer.pilotId), proposer.trip, limits)(timesOf(owner.trip)),
      owner: proposer.trip ? swapChecker(of(owner.pilotId), owner.trip, limits)(timesOf(proposer.trip)) : null,
    }));
  }
  return {
    check,
    /** 409 with the sentences when either pilot may not fly what they would take. */
    async refuseIfIllegal(swap: SwapParties, ex?: Executor): Promise<void> {
      const [legality] = await check([swap], ex);
      const broken = [legality!.proposer, legality!.owner].filter((side): side is Legality => side?.legal === false);
      if (broken.length > 0) throw conflict(broken.map(refusalOf).join('. '));
    },
  };
}
export type SwapCheck = ReturnType<typeof createSwapCheck>;

import { notFound, badRequest, type Clock } from '@crewswap/kit';
import { isWithinMaxWindow, MAX_WINDOW_DAYS, outOfRangeDate, tripWindow, type MatchesQuery } from '@crewswap/proto';
import type { OfferIndex } from '../data/offer-index';
import type { ReadModelRepository } from '../data/read-model';
import type { RosterCache } from '../data/roster-cache';
import { decodeCursor, PAGE_MESSAGES, shownTripIds, type MatchPage } from '../rules/match-page';
import { urgentDates } from '../rules/swap-rule';
import { swapLegality } from './swap-legality';

export const TRIP_NOT_FOUND = 'Trip not found';

/**
 * The offers an answer showed, in its order, for who saw what; when the offer index answered,
 * also which answer it was (pilot, trip, dates, page) and the offers' versions as the index holds
 * them, by which a view already recorded is known.
 */
export interface ShownOffers {
  tripIds: string[];
  held?: { answer: string; versions: readonly number[] };
}

/**
 * Find swaps for one of the pilot's own trips: the compatible offers starting inside the window,
 * each marked Mutual and Urgent, Mutual first, then Urgent, then by date; the whole list, or a
 * page of it (`limit`, `cursor`). Explicit query dates win; each bound left out comes from the
 * trip's range, the pilot's day range or the setting (tripWindow). Another pilot's trip is
 * answered like an unknown one.
 */
export function createFindMatches(deps: {
  readModel: ReadModelRepository;
  offers: Pick<OfferIndex, 'find'>;
  rosters: Pick<RosterCache, 'held' | 'rosters'>;
  clock: Clock;
  /** Reads, and for a while reads again, until the answer is found: the read model learns of trips and pilots from events. */
  awaitTrips: <T>(read: () => Promise<T>, found: (value: T) => boolean) => Promise<T>;
}) {
  const { readModel, offers, rosters, clock, awaitTrips } = deps;
  return {
    /**
     * Answers the JSON of SwapMatch[] (or a SwapMatchPage), as text (findOffersJson) or as UTF-8
     * bytes (the offer index), and the ids of the offers it shows the pilot.
     */
    async execute(input: { pilotId: string; tripId: string; query: MatchesQuery }): Promise<{ json: string | Buffer; shown: ShownOffers }> {
      // A pilot who adds a trip and taps Find swaps at once may be quicker than trips' event, and a
      // pilot who registered a moment ago quicker than auth's: the trip and the pilot's profile are
      // waited for, rather than answered "Trip not found" or an empty list that reads as "no
      // offers". Another pilot's trip is not. Read once when both are there, as nearly always.
      const { trip, asker, settingDays, askerOtherTrips, roster, limits } = await awaitTrips(
        () => readModel.findAskContext(input.tripId, input.pilotId, { heldRoster: rosters.held(input.pilotId)?.roster }),
        (found) => found.trip !== undefined && (found.trip.pilotId !== input.pilotId || found.asker !== undefined),
      );
      if (!trip || trip.pilotId !== input.pilotId) throw notFound(TRIP_NOT_FOUND);
      const { startDate, endDate, limit, cursor, sort, legalOnly } = input.query;
      if (cursor !== undefined && limit === undefined) throw badRequest(PAGE_MESSAGES.cursorWithoutLimit);
      const page: MatchPage = limit === undefined ? null : { limit, after: cursor === undefined ? null : decodeCursor(trip.id, cursor, sort) };
      const none = { json: page === null ? '[]' : '{"matches":[],"total":0,"nextCursor":null}', shown: { tripIds: [] } };
      const outOfRange = outOfRangeDate([startDate, endDate], clock.today());
      if (outOfRange) throw badRequest(outOfRange);
      for (const date of [startDate, endDate]) {
        if (date !== undefined && !isWithinMaxWindow(trip.startDate, date)) {
          throw badRequest(`The search dates must be within ${MAX_WINDOW_DAYS} days of the trip's start date.`);
        }
      }
      if (startDate && endDate && endDate < startDate) throw badRequest('End date cannot be before start date');
      if (!asker) return none;
      const fallback = tripWindow(trip, asker.searchDayRange, settingDays);
      const window = { from: startDate ?? fallback.from, to: endDate ?? fallback.to };
      if (window.to < window.from) return none;
      // The flight time limitations (issue 55): each offer the answer shows is checked against the
      // asker's roster as it would be after the swap (their trip given away), worked out once a
      // request; an offer the rule finds Mutual also against its owner's, read for those alone.
      const legality = swapLegality({ asker: { roster, base: asker.contact.base }, trip, limits, legalOnly, rosters: (ids) => rosters.rosters(ids) });
      const query = { asker, trip, window, askerOtherTrips, settingDays, urgent: urgentDates(clock.now()), page, sort, checks: legality.checks };
      // Who matches is the swap rule's (rules/swap-rule.ts) either way. From memory when the
      // index is in step with the table; from Postgres while it is not. Asked again when owners
      // were found who may not fly the asker's trip, so that their offers are not Mutual.
      for (;;) {
        const found = offers.find(query);
        if (found && (await legality.ownersRead())) continue;
        if (found) {
          const answer = [input.pilotId, trip.id, window.from, window.to, limit ?? '', cursor ?? '', sort, legalOnly].join(' ');
          return { json: found.json, shown: { tripIds: found.tripIds, held: { answer, versions: found.versions } } };
        }
        const json = await readModel.findOffersJson(query);
        if (await legality.ownersRead()) continue;
        return { json, shown: { tripIds: shownTripIds(json) } };
      }
    },
  };
}
export type FindMatches = ReturnType<typeof createFindMatches>;

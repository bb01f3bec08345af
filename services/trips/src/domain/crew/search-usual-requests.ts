import { badRequest, type Clock } from '@crewswap/kit';
import { HOME_BASES, IsoDate, outOfRangeDate, SEARCH_MESSAGES as S, type UsualRequestResult, type UsualRequestsQuery, type UsualRequestsResponse } from '@crewswap/proto';
import type { CrewRepository } from '../../data/crew';
import type { PilotRepository } from '../../data/pilots';
import type { KnownAirports } from '../known-airports';
import { requireMasterRoster } from './access';

const FLIGHT = /^VS\d{3}$/;
const ROUTE = /^[A-Z]{3}(-[A-Z]{3})?$/;

interface Criteria {
  date: string;
  flightNumber: string | null;
  /** Outstations to find in a trip's route; home bases dropped ('LHR-JFK' finds JFK trips). */
  codes: string[] | null;
}

/** The spec's Trip Search checks, shaped as the app shapes them (uppercase, trimmed). */
export async function searchCriteria(query: UsualRequestsQuery, today: string, knownAirports: KnownAirports): Promise<Criteria> {
  const flightNumber = query.flightNumber?.trim().toUpperCase() || null;
  const destination = query.destination?.trim().toUpperCase() || null;
  const date = query.date?.trim() || null;
  if (!flightNumber && !destination) throw badRequest(S.criteria, { title: S.criteriaTitle });
  if (flightNumber && !FLIGHT.test(flightNumber)) throw badRequest(S.flightNumber, { title: S.flightNumberTitle });
  if (destination && !ROUTE.test(destination)) throw badRequest(S.routeFormat, { title: S.routeFormatTitle });
  if (!date) throw badRequest(S.date, { title: S.dateTitle });
  const parsed = IsoDate.safeParse(date);
  if (!parsed.success) throw badRequest(parsed.error.issues[0]!.message, { title: S.dateTitle });
  const outOfRange = outOfRangeDate([date], today);
  if (outOfRange) throw badRequest(outOfRange, { title: S.dateTitle });
  let codes: string[] | null = null;
  if (destination) {
    const all = destination.split('-');
    const known = await knownAirports.known(all);
    const unknown = all.find((code) => !known.has(code));
    if (unknown) throw badRequest(S.unknownAirport(unknown), { title: S.unknownAirportTitle });
    const outstations = all.filter((code) => !(HOME_BASES as readonly string[]).includes(code));
    // A search for a home base alone ('LHR') matches every trip: all of them start there.
    codes = outstations;
  }
  return { date, flightNumber, codes };
}

/**
 * Trip Search (Usual Requests): the flights matching a VS flight number and/or an airport or
 * route on a date, each with the crew who hold it (Master Roster on). Only for a caller with
 * Master Roster on; 'No Results' when nothing matched.
 */
export function createSearchUsualRequests(deps: { pilots: PilotRepository; crew: CrewRepository; knownAirports: KnownAirports; clock: Clock }) {
  return {
    async execute(input: { pilotId: string; query: UsualRequestsQuery }): Promise<UsualRequestsResponse> {
      await requireMasterRoster(deps.pilots, input.pilotId);
      const criteria = await searchCriteria(input.query, deps.clock.today(), deps.knownAirports);
      const longestDays = criteria.codes ? await deps.crew.longestTripDays() : 0;
      const rows = await deps.crew.search({ pilotId: input.pilotId, ...criteria, longestDays });
      const results = new Map<string, UsualRequestResult>();
      for (const { trip, member } of rows) {
        const key = [trip.flightNoStart, trip.flightNoEnd, trip.route, trip.startDate, trip.endDate].join('|');
        let result = results.get(key);
        if (!result) {
          result = {
            flightNoStart: trip.flightNoStart,
            flightNoEnd: trip.flightNoEnd,
            route: trip.route,
            aircraft: trip.aircraft,
            startDate: trip.startDate,
            endDate: trip.endDate,
            icsDescription: trip.icsDescription,
            crew: [],
          };
          results.set(key, result);
        }
        result.icsDescription ??= trip.icsDescription;
        result.crew.push(member);
      }
      const list = [...results.values()];
      return list.length > 0
        ? { results: list, title: null, message: null }
        : { results: [], title: S.noResultsTitle, message: S.noResults };
    },
  };
}

import type { Clock } from '@crewswap/kit';
import type { CrewRepository } from '../../data/crew';
import type { PilotRepository } from '../../data/pilots';
import type { StatsRepository } from '../../data/stats';
import type { TripRepository } from '../../data/trips';
import type { WhatsappGroupRepository } from '../../data/whatsapp-groups';
import type { KnownAirports } from '../known-airports';
import { createGetCrossoverTrips } from './crossover-trips';
import { createGetMasterCalendar } from './master-calendar';
import { createGetPilotContact } from './pilot-contact';
import { createGetPilotStats } from './pilot-stats';
import { createSearchUsualRequests } from './search-usual-requests';
import { createGetTripCrew } from './trip-crew';

/**
 * Other pilots' trips as a pilot may see them; the routes take their type from here.
 * `cacheMs`: how long a master calendar or crossover list is shared between callers.
 */
export function createCrewUseCases(deps: {
  trips: TripRepository;
  pilots: PilotRepository;
  crew: CrewRepository;
  stats: StatsRepository;
  groups: WhatsappGroupRepository;
  knownAirports: KnownAirports;
  clock: Clock;
  cacheMs: number;
}) {
  const { trips, pilots, crew, stats, groups, knownAirports, clock, cacheMs } = deps;
  return {
    tripCrew: createGetTripCrew({ trips, crew }),
    masterCalendar: createGetMasterCalendar({ pilots, crew, clock, cacheMs }),
    crossoverTrips: createGetCrossoverTrips({ pilots, crew, clock, cacheMs }),
    searchUsualRequests: createSearchUsualRequests({ pilots, crew, knownAirports, clock }),
    pilotStats: createGetPilotStats({ stats, groups, clock }),
    pilotContact: createGetPilotContact({ pilots, crew }),
  };
}
export type CrewUseCases = ReturnType<typeof createCrewUseCases>;

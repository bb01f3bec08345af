import { forbidden, notFound, unavailable, type Executor } from '@crewswap/kit';
import { MASTER_ROSTER_MESSAGES, TRIP_MESSAGES, type Trip } from '@crewswap/proto';
import type { DirectoryPilot, PilotRepository } from '../../data/pilots';
import type { TripRepository } from '../../data/trips';

/** The caller as the directory knows them; a pilot whose profile has not arrived yet is told to retry. */
export async function callerPilot(pilots: PilotRepository, pilotId: string, trx?: Executor): Promise<DirectoryPilot> {
  const pilot = await pilots.find(pilotId, trx);
  if (!pilot) throw unavailable(TRIP_MESSAGES.profileNotReady);
  return pilot;
}

/**
 * Trip Search, Master Calendar and Crossover Calendar need Master Roster on (pilot-app section 6):
 * a pilot who hides their own roster does not see everyone else's.
 */
export async function requireMasterRoster(pilots: PilotRepository, pilotId: string): Promise<DirectoryPilot> {
  const pilot = await callerPilot(pilots, pilotId);
  if (!pilot.usualReq) throw forbidden(MASTER_ROSTER_MESSAGES.notAvailable, { title: MASTER_ROSTER_MESSAGES.notAvailableTitle });
  return pilot;
}

/** The caller's own trip; another pilot's trip is as good as missing (404). */
export async function ownTrip(trips: TripRepository, pilotId: string, tripId: string, trx?: Executor, forUpdate = false): Promise<Trip> {
  const trip = await trips.findOwn(pilotId, tripId, trx, forUpdate);
  if (!trip) throw notFound(TRIP_MESSAGES.tripNotFound);
  return trip;
}

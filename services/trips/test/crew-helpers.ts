import { testTrip } from '@crewswap/kit-testing';
import type { Pilot, Trip } from '@crewswap/proto';
import type { TripFields } from '../src/data/trips';
import { makePilot, pilotCookie, startTestService, TODAY, type TestService } from './helpers';

/**
 * One trips service for the calling describe block, stopped after it, with the clock back at noon
 * on TODAY before each test (a test may move it). Call the result inside hooks and tests, once
 * the service has started.
 */
export function crewTestService(): () => TestService {
  let service: TestService | undefined;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service?.stop();
  });
  beforeEach(() => service!.clock.set(`${TODAY}T12:00:00Z`));
  return () => service!;
}

/**
 * A pilot in the directory (applied as auth's profile event would be) and their requests. Trips
 * are stored through the repository, so a test can hold trips the API would refuse today (an
 * ended trip, a trip at the edge of a calendar window) as a roster import can.
 */
export async function crewPilot(service: TestService, overrides: Partial<Pilot> = {}) {
  const pilot = makePilot(overrides);
  await service.repositories.pilots.applyProfile(pilot, new Date().toISOString());
  const cookies = pilotCookie(pilot.id);
  const request = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: Record<string, unknown>) => {
    const response = await service.app.inject({ method, url, cookies, ...(payload ? { payload } : {}) });
    return { status: response.statusCode, body: response.body ? response.json() : undefined };
  };
  return {
    pilot,
    cookies,
    request,
    get: (url: string) => request('GET', url),
    addTrip: (fields: Partial<TripFields> = {}): Promise<Trip> => service.repositories.trips.insert(pilot.id, tripFields(fields)),
  };
}
export type CrewPilot = Awaited<ReturnType<typeof crewPilot>>;

export function tripFields(fields: Partial<TripFields> = {}): TripFields {
  const { id: _id, pilotId: _pilotId, createdAt: _createdAt, updatedAt: _updatedAt, ...trip } = testTrip(fields);
  return trip;
}

let flight = 100;
/** A flight number no other test of the file uses, so tests sharing a database never meet. */
export function freshFlight(): { flightNoStart: string; flightNoEnd: string } {
  flight += 2;
  return { flightNoStart: `VS${flight}`, flightNoEnd: `VS${flight + 1}` };
}

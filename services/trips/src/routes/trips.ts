import { routes, type SessionGuard } from '@crewswap/kit';
import { API, type TripChangeOrigin } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import type { TripRepository } from '../data/trips';
import type { CreateTrip } from '../domain/create-trip';
import type { createListTripsWithCrew } from '../domain/crew/trip-crew';
import type { DescribeTrip } from '../domain/describe-trip';
import type { KeepTrip } from '../domain/keep-trip';
import type { OfferTrip } from '../domain/offer-trip';
import type { RemoveTrip } from '../domain/remove-trip';
import type { UpdateTrip } from '../domain/update-trip';

export interface TripUseCases {
  createTrip: CreateTrip;
  updateTrip: UpdateTrip;
  removeTrip: RemoveTrip;
  offerTrip: OfferTrip;
  describeTrip: DescribeTrip;
  keepTrip: KeepTrip;
  listTripsWithCrew: ReturnType<typeof createListTripsWithCrew>;
}

/** A pilot's own trips; another pilot's trip answers 404 on every route. */
export function tripRoutes(app: FastifyInstance, deps: { guard: SessionGuard; trips: TripRepository; useCases: TripUseCases }): void {
  const { guard, trips, useCases } = deps;
  const route = routes(app);
  const pilot = guard.pilot;
  /** The session (device) that makes a change: the pilot's other devices hear of it, this one not. */
  const fromApp = (session: { sessionId: string }): TripChangeOrigin => ({ channel: 'app', sessionId: session.sessionId });

  route(API.listTrips, { auth: pilot }, async ({ session, query }) =>
    query.includeCrew === 'true' ? useCases.listTripsWithCrew.execute({ pilotId: session.pilotId }) : trips.listByPilot(session.pilotId),
  );

  route(API.createTrip, { auth: pilot, status: 201 }, async ({ session, body }) =>
    useCases.createTrip.execute({ pilotId: session.pilotId, body, origin: fromApp(session) }),
  );

  route(API.updateTrip, { auth: pilot }, async ({ session, params, body }) =>
    useCases.updateTrip.execute({ pilotId: session.pilotId, id: params.id, body, origin: fromApp(session) }),
  );

  route(API.deleteTrip, { auth: pilot, status: 204 }, async ({ session, params }) =>
    useCases.removeTrip.execute({ pilotId: session.pilotId, id: params.id, origin: fromApp(session) }),
  );

  route(API.setTripSwappable, { auth: pilot }, async ({ session, params, body }) =>
    useCases.offerTrip.execute({ pilotId: session.pilotId, id: params.id, body, origin: fromApp(session) }),
  );

  route(API.setTripDescription, { auth: pilot }, async ({ session, params, body }) =>
    useCases.describeTrip.execute({ pilotId: session.pilotId, id: params.id, body, origin: fromApp(session) }),
  );

  route(API.setTripRequested, { auth: pilot }, async ({ session, params, body }) =>
    useCases.keepTrip.execute({ pilotId: session.pilotId, id: params.id, body, origin: fromApp(session) }),
  );
}

import { adminWith, routes, type SessionGuard } from '@crewswap/kit';
import { API } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import type { AirportRepository } from '../data/airports';
import type { createAddExcludedAirport } from '../domain/add-excluded-airport';
import type { createAddIataCode } from '../domain/add-iata-code';
import type { createDeleteIataCode } from '../domain/delete-iata-code';
import type { createRemoveExcludedAirport } from '../domain/remove-excluded-airport';
import type { IataList } from '../domain/iata-list';
import type { createUpdateIataCode } from '../domain/update-iata-code';
import { sendShared } from './shared-body';

export interface AirportUseCases {
  addIataCode: ReturnType<typeof createAddIataCode>;
  updateIataCode: ReturnType<typeof createUpdateIataCode>;
  deleteIataCode: ReturnType<typeof createDeleteIataCode>;
  addExcludedAirport: ReturnType<typeof createAddExcludedAirport>;
  removeExcludedAirport: ReturnType<typeof createRemoveExcludedAirport>;
}

/** How long a browser keeps the IATA list (the spec caches it 10 minutes). */
const IATA_LIST_CACHE = 'public, max-age=600';

export function airportRoutes(
  app: FastifyInstance,
  deps: { guard: SessionGuard; airports: AirportRepository; iataList: IataList; useCases: AirportUseCases },
): void {
  const { guard, airports, iataList, useCases } = deps;
  const route = routes(app);
  const destinations = adminWith(guard, 'manage_destinations');

  // Public reference data (every airport in the world), needed before anything is personal:
  // no session, so a browser may keep it for the 10 minutes the spec asks, and after that a
  // repeat quoting the ETag costs a 304. Codes only: the full records are the admin routes'.
  route(API.iataCodes, { auth: 'none' }, async ({ request, reply }) => sendShared(request, reply, await iataList.current(), IATA_LIST_CACHE));

  // A pilot confirming an unknown code they know to be a real airport (Confirm Valid Airport).
  route(API.confirmIataCode, { auth: guard.pilot, status: 201 }, async ({ body }) => useCases.addIataCode.execute(body));

  route(API.adminIataCodes, { auth: destinations }, async () => airports.listIata());

  route(API.adminCreateIataCode, { auth: destinations, status: 201 }, async ({ body }) => useCases.addIataCode.execute(body));

  route(API.adminUpdateIataCode, { auth: destinations }, async ({ params, body }) =>
    useCases.updateIataCode.execute({ id: params.id, body }),
  );

  route(API.adminDeleteIataCode, { auth: destinations, status: 204 }, async ({ params }) => useCases.deleteIataCode.execute({ id: params.id }));

  route(API.excludedAirports, { auth: destinations }, async () => airports.listExcluded());

  // The spec titles a bad code here 'Invalid IATA Code'.
  route(API.excludeAirport, { auth: destinations, status: 201, invalidTitle: 'Invalid IATA Code' }, async ({ body }) =>
    useCases.addExcludedAirport.execute({ iataCode: body.iataCode }),
  );

  route(API.includeAirport, { auth: destinations, status: 204 }, async ({ params }) => useCases.removeExcludedAirport.execute({ id: params.id }));
}

import { HttpError, parse, type SessionGuard } from '@crewswap/kit';
import { CreateExcludedAirportBody, CreateIataCodeBody, IdParams, UpdateIataCodeBody } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import type { AirportService } from '../domain/airports';

/** How long a browser keeps the IATA list (the spec caches it 10 minutes). */
const IATA_LIST_CACHE = 'public, max-age=600';

export function airportRoutes(app: FastifyInstance, deps: { guard: SessionGuard; airports: AirportService }): void {
  const { guard, airports } = deps;

  // Public reference data (every airport in the world), needed before anything is personal:
  // no session, so a browser and the gateway may keep it for the 10 minutes the spec asks.
  app.get('/api/iata-codes', async (_request, reply) => {
    reply.header('cache-control', IATA_LIST_CACHE);
    return airports.listIata();
  });

  // A pilot confirming an unknown code they know to be a real airport (Confirm Valid Airport).
  app.post('/api/iata-codes', async (request, reply) => {
    guard.pilot(request);
    return reply.status(201).send(await airports.createIata(parse(CreateIataCodeBody, request.body ?? {})));
  });

  app.get('/api/admin/iata-codes', async (request) => {
    guard.admin(request, 'manage_destinations');
    return airports.listIata();
  });

  app.post('/api/admin/iata-codes', async (request, reply) => {
    guard.admin(request, 'manage_destinations');
    return reply.status(201).send(await airports.createIata(parse(CreateIataCodeBody, request.body ?? {})));
  });

  app.patch('/api/admin/iata-codes/:id', async (request) => {
    guard.admin(request, 'manage_destinations');
    const { id } = parse(IdParams, request.params);
    return airports.updateIata(id, parse(UpdateIataCodeBody, request.body ?? {}));
  });

  app.delete('/api/admin/iata-codes/:id', async (request, reply) => {
    guard.admin(request, 'manage_destinations');
    const { id } = parse(IdParams, request.params);
    await airports.deleteIata(id);
    return reply.status(204).send();
  });

  app.get('/api/admin/excluded-airports', async (request) => {
    guard.admin(request, 'manage_destinations');
    return airports.listExcluded();
  });

  app.post('/api/admin/excluded-airports', async (request, reply) => {
    guard.admin(request, 'manage_destinations');
    const body = parseExcluded(request.body);
    return reply.status(201).send(await airports.addExcluded(body.iataCode));
  });

  app.delete('/api/admin/excluded-airports/:id', async (request, reply) => {
    guard.admin(request, 'manage_destinations');
    const { id } = parse(IdParams, request.params);
    await airports.removeExcluded(id);
    return reply.status(204).send();
  });
}

/** The spec titles this one 'Invalid IATA Code'. */
function parseExcluded(body: unknown) {
  try {
    return parse(CreateExcludedAirportBody, body ?? {});
  } catch (error) {
    if (error instanceof HttpError) throw new HttpError(error.status, error.message, { ...error.options, title: 'Invalid IATA Code' });
    throw error;
  }
}

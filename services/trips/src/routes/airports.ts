import { HttpError, parse, type SessionGuard } from '@crewswap/kit';
import { CreateExcludedAirportBody, CreateIataCodeBody, IdParams, UpdateIataCodeBody } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import type { AirportService } from '../domain/airports';
import type { IataList } from '../domain/iata-list';

/** How long a browser keeps the IATA list (the spec caches it 10 minutes). */
const IATA_LIST_CACHE = 'public, max-age=600';

export function airportRoutes(app: FastifyInstance, deps: { guard: SessionGuard; airports: AirportService; iataList: IataList }): void {
  const { guard, airports, iataList } = deps;

  // Public reference data (every airport in the world), needed before anything is personal:
  // no session, so a browser may keep it for the 10 minutes the spec asks, and after that a
  // repeat quoting the ETag costs a 304. Codes only: the full records are the admin routes'.
  app.get('/api/iata-codes', async (request, reply) => {
    const list = await iataList.current();
    reply.header('cache-control', IATA_LIST_CACHE).header('etag', list.etag).header('vary', 'accept-encoding');
    if (matchesTag(request.headers['if-none-match'], list.etag)) return reply.status(304).send();
    reply.type('application/json; charset=utf-8');
    if (acceptsGzip(request.headers['accept-encoding'])) return reply.header('content-encoding', 'gzip').send(list.gzip);
    return reply.send(list.json);
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

/** If-None-Match holds `*` or a list of tags; weak comparison, as RFC 9110 asks for it. */
function matchesTag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((tag) => opaque(tag) === opaque(etag));
}

/** gzip listed and not refused with q=0. */
function acceptsGzip(acceptEncoding: string | undefined): boolean {
  return (acceptEncoding ?? '').split(',').some((part) => {
    const [coding = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    return (coding === 'gzip' || coding === '*') && !params.some((param) => /^q=0(\.0*)?$/.test(param));
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

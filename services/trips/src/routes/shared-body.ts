import type { FastifyReply, FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';
import type { SharedBody } from '../domain/crew/shared-body';

/**
 * Sends a shared answer as it was built: 304 when the client holds the same ETag, else the gzip
 * bytes (Content-Encoding set, so neither this service nor the gateway compresses it again) or
 * the plain JSON. By default `no-cache` makes a browser ask again each time, with If-None-Match.
 */
export function sendShared(request: FastifyRequest, reply: FastifyReply, body: Pick<SharedBody, 'etag' | 'gzip'> & { json: Buffer | string }, cacheControl = 'private, no-cache'): Buffer | string {
  reply.header('etag', body.etag).header('cache-control', cacheControl).header('vary', 'accept-encoding').type('application/json; charset=utf-8');
  if (matchesTag(request.headers['if-none-match'], body.etag)) {
    reply.status(304);
    return '';
  }
  // The body is gzipped once when built: the choice is only gzip or plain (negotiator reads q=0, *).
  if (new Negotiator(request).encoding(['gzip', 'identity']) !== 'gzip') return body.json;
  reply.header('content-encoding', 'gzip');
  return body.gzip;
}

/** If-None-Match holds `*` or a list of tags; weak comparison, as RFC 9110 asks for it. */
export function matchesTag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((tag) => opaque(tag) === opaque(etag));
}

import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SharedBody } from '../domain/crew/shared-body';

/** gzip unless the client refuses it (`gzip;q=0`) or does not name it. */
function acceptsGzip(header: string | undefined): boolean {
  return (header ?? '').split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding !== 'gzip' && coding !== '*') return false;
    const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    return !q || Number(q.slice(2)) > 0;
  });
}

/**
 * Sends a shared answer as it was built: 304 when the client holds the same ETag, else the gzip
 * bytes (Content-Encoding set, so neither this service nor the gateway compresses it again) or
 * the plain JSON. `no-cache` makes a browser ask again each time, with If-None-Match.
 */
export function sendShared(request: FastifyRequest, reply: FastifyReply, body: SharedBody): Buffer | string {
  reply.header('etag', body.etag).header('cache-control', 'private, no-cache').header('vary', 'accept-encoding').type('application/json; charset=utf-8');
  const held = request.headers['if-none-match'];
  if (held && held.split(',').some((tag) => tag.trim().replace(/^W\//, '') === body.etag)) {
    reply.status(304);
    return '';
  }
  if (!acceptsGzip(request.headers['accept-encoding'])) return body.json;
  reply.header('content-encoding', 'gzip');
  return body.gzip;
}

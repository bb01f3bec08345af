import { trackStream, type SessionGuard } from '@crewswap/kit';
import { SSE_EVENTS_PATH } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import type { Hub } from '../domain/hub';

/**
 * GET /api/sse/events: the pilot's stream. Without a live session it is a JSON 401 like every
 * other route; with one the response is taken over and stays open until the client leaves, the
 * session ends (an error frame first) or this process stops.
 */
export function eventRoutes(app: FastifyInstance, deps: { guard: SessionGuard; hub: Hub }): void {
  app.get(SSE_EVENTS_PATH, async (request, reply) => {
    const session = await deps.guard.pilot(request);
    reply.hijack();
    trackStream(request, reply);
    const response = reply.raw;
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      // Proxies (the gateway, nginx) must pass each frame on at once.
      'x-accel-buffering': 'no',
      'x-request-id': request.id,
    });
    request.raw.socket.setNoDelay(true);
    // The stream is meant to stay open: no idle timeout on its socket.
    request.raw.socket.setTimeout(0);
    const connection = deps.hub.open(session, {
      write: (chunk) => response.write(chunk),
      get writableLength() {
        return response.writableLength;
      },
      end: () => response.end(),
      onDrain: (listener) => response.on('drain', listener),
    });
    response.on('close', () => deps.hub.close(connection));
  });
}

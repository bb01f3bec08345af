import { routes, type SessionGuard, type SystemState } from '@crewswap/kit';
import { API } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import type { CalendarFeed } from '../domain/calendar/feed';
import { matchesTag } from './shared-body';

/**
 * A pilot's calendar feed: turned on, given a new address or off with the pilot's session; read
 * by calendar apps with no session at all, the private address being the key (and so answered
 * 503 while an emergency shutdown lasts, like every other call).
 */
export function calendarFeedRoutes(app: FastifyInstance, deps: { guard: SessionGuard; feed: CalendarFeed; system: Pick<SystemState, 'assertRunning'> }): void {
  const { feed } = deps;
  const route = routes(app);
  const pilot = deps.guard.pilot;

  route(API.calendarFeedStatus, { auth: pilot }, async ({ session }) => feed.status(session.pilotId));
  route(API.renewCalendarFeed, { auth: pilot }, async ({ session }) => feed.rotate(session.pilotId));
  route(API.stopCalendarFeed, { auth: pilot, status: 204 }, async ({ session }) => feed.turnOff(session.pilotId));

  route(API.calendarFeed, { auth: 'none' }, async ({ params, request, reply }) => {
    // With no session to end, the address would go on answering through a shutdown.
    deps.system.assertRunning();
    const calendar = await feed.read(params.token);
    reply.header('cache-control', 'private, no-cache').type('text/calendar; charset=utf-8');
    // Calendar apps poll: one that holds this version is told so without the body.
    if (matchesTag(request.headers['if-none-match'], calendar.etag)) {
      reply.header('etag', calendar.etag).status(304);
      return '';
    }
    const { etag, text } = await calendar.body();
    reply.header('etag', etag);
    return text;
  });
}

import type { Bus, Logger } from '@crewswap/kit';
import { SESSION_ACTIVITY } from '@crewswap/proto';
import { z } from 'zod';
import type { AdminRepository } from '../data/admin-repository';

const Activity = z.object({ sessionId: z.uuid(), at: z.string() });

/**
 * Every service's guard reports use of a session (at most once a minute) on core NATS; admin
 * records it for its own sessions (pilot session ids match no row). Replicas share a queue group,
 * so each report is written once; our clock stamps it, as auth does for pilots.
 */
export function startAdminActivitySubscription(deps: { bus: Bus; log: Logger; admins: AdminRepository; now: () => Date }): { stop(): void } {
  const subscription = deps.bus.nc.subscribe(deps.bus.subject(SESSION_ACTIVITY), {
    queue: 'admin.session-activity',
    callback: (error, message) => {
      if (error) return;
      let sessionId: string;
      try {
        sessionId = Activity.parse(message.json()).sessionId;
      } catch {
        return;
      }
      deps.admins.touchSession(sessionId, deps.now()).catch((failure: unknown) => deps.log.warn({ err: failure }, 'could not record admin session activity'));
    },
  });
  return { stop: () => subscription.unsubscribe() };
}

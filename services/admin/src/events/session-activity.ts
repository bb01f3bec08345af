import { followSessionActivity, type Bus, type Logger } from '@crewswap/kit';
import type { AdminRepository } from '../data/admin-repository';

/**
 * Admin records use of its own sessions (pilot session ids match no row); our clock stamps it,
 * as auth does for pilots.
 */
export function startAdminActivitySubscription(deps: { bus: Bus; log: Logger; admins: AdminRepository; now: () => Date }): { stop(): void } {
  return followSessionActivity({
    bus: deps.bus,
    log: deps.log,
    queue: 'admin.session-activity',
    touch: (sessionId) => deps.admins.touchSession(sessionId, deps.now()),
  });
}

import { publishDirect, type Bus, type Logger } from '@crewswap/kit';
import { DIRECT, type AlertReason, type SseBellUpdated } from '@crewswap/proto';

/**
 * Tells the pilot's open apps that their bell changed: an alert was written (with its reason, by
 * push-sender) or alerts were read (without one, by the API). On core NATS, as realtime expects a
 * direct update: not stored, since an app that misses it (closed, or NATS away) reads the bell
 * afresh when it next opens. It carries the caller's trace to realtime. A failure here is logged,
 * never the caller's.
 */
export function tellBellUpdated(deps: { bus: Bus; log: Logger }, pilotId: string, at: Date, reason?: AlertReason): void {
  const message: SseBellUpdated = { type: 'bell-updated', message: 'bell-updated', ...(reason ? { reason } : {}), at: at.toISOString() };
  try {
    publishDirect(deps.bus, DIRECT.realtimePilot(pilotId), message);
  } catch (error) {
    deps.log.warn({ err: error, pilotId }, "could not tell the pilot's open apps that their bell changed");
  }
}

import { publishDirect, type Bus, type Logger } from '@crewswap/kit';
import { DIRECT, type AlertReason } from '@crewswap/proto';

/**
 * Tells the pilot's open apps that an alert is now in their bell, with its reason. On core NATS,
 * as realtime expects a direct update: not stored, since an app that misses it (closed, or NATS
 * away) reads the bell afresh when it next opens. It carries the push's trace to realtime. A
 * failure here is logged, never the push's.
 */
export function tellAlertWritten(deps: { bus: Bus; log: Logger }, pilotId: string, reason: AlertReason, at: Date): void {
  try {
    publishDirect(deps.bus, DIRECT.realtimePilot(pilotId), { type: 'bell-updated', message: 'bell-updated', reason, at: at.toISOString() });
  } catch (error) {
    deps.log.warn({ err: error, pilotId }, "could not tell the pilot's open apps of a new alert");
  }
}

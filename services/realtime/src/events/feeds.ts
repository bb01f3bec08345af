import { follow, type Bus, type Logger } from '@crewswap/kit';
import { REALTIME_BROADCAST, realtimePilotSubject, SseBellUpdated, SseTripsAdded, SseTripsUpdated, SUBJECTS } from '@crewswap/proto';
import { z } from 'zod';
import type { Hub } from '../domain/hub';
import { rosterNotice, swapNotice, SWAP_SUBJECTS, tripNotice } from '../domain/messages';

/** Trip changes become 'trips-updated' for the pilot's other channels; imports become 'trips added'. */
export async function startFeeds(deps: { bus: Bus; log: Logger; hub: Hub }): Promise<() => Promise<void>> {
  const { bus, log, hub } = deps;
  // Followers from now, one per process: each replica reads every event and delivers to its own
  // streams. Nothing is replayed after a restart: a client that reconnects refreshes its trips anyway.
  const trips = await follow({
    bus,
    log,
    stream: 'TRIPS',
    filter: 'trips.trip.>',
    subjects: [SUBJECTS.tripCreated, SUBJECTS.tripUpdated, SUBJECTS.tripOffered, SUBJECTS.tripDeleted],
    handle: (event) => {
      const notice = tripNotice(event.data, event.occurredAt);
      if (notice) hub.deliver(notice.pilotId, notice.message, notice.exceptSessionId);
    },
  });
  const rosters = await follow({
    bus,
    log,
    stream: 'ROSTER',
    subjects: [SUBJECTS.rosterProcessed],
    handle: (event) => {
      const notice = rosterNotice(event.data, event.occurredAt);
      hub.deliver(notice.pilotId, notice.message);
    },
  });
  const swaps = await follow({
    bus,
    log,
    stream: 'SWAPS',
    filter: 'swaps.>',
    subjects: SWAP_SUBJECTS,
    handle: (event) => {
      const notice = swapNotice(event, event.occurredAt);
      for (const pilotId of notice.pilotIds) hub.deliver(pilotId, notice.message);
    },
  });
  const stops = [() => trips.stop(), () => rosters.stop(), () => swaps.stop()];
  // Any service may also tell a pilot's open apps (or all of them) something directly, on core
  // NATS: not stored, every replica hears it. Only updates travel this way; a session's end
  // comes from auth's revocations alone. push-sender says here that it wrote an alert to the bell.
  const Direct = z.discriminatedUnion('type', [SseTripsUpdated, SseTripsAdded, SseBellUpdated]);
  const pilotPrefix = bus.subject(realtimePilotSubject(''));
  for (const subject of [bus.subject(realtimePilotSubject('*')), bus.subject(REALTIME_BROADCAST)]) {
    const subscription = bus.nc.subscribe(subject, {
      callback: (error, message) => {
        if (error) return;
        const parsed = Direct.safeParse(readJson(message.string()));
        if (!parsed.success) {
          log.warn({ subject: message.subject }, 'ignoring a direct message that is not an update');
          return;
        }
        if (message.subject.startsWith(pilotPrefix)) hub.deliver(message.subject.slice(pilotPrefix.length), parsed.data);
        else hub.broadcast(parsed.data);
      },
    });
    stops.push(async () => subscription.unsubscribe());
  }
  return async () => {
    await Promise.all(stops.map((stop) => stop()));
  };
}

function readJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

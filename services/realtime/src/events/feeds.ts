import { follow, subscribeDirect, type Bus, type Logger } from '@crewswap/kit';
import { DIRECT, realtimePilotSubject, SUBJECTS } from '@crewswap/proto';
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
      if (!notice) return;
      hub.deliver(notice.pilotId, notice.message, notice.exceptSessionId);
      if (notice.movedFrom) hub.deliver(notice.movedFrom, notice.message);
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
  // NATS: not stored, every replica hears it. Only updates travel this way (the channels' schema);
  // a session's end comes from auth's revocations alone. push-sender says here that it wrote an
  // alert to the bell.
  const pilotPrefix = realtimePilotSubject('');
  const pilots = subscribeDirect({
    bus,
    log,
    channel: DIRECT.realtimePilot('*'),
    handle: (update, subject) => hub.deliver(subject.slice(pilotPrefix.length), update),
  });
  const everyone = subscribeDirect({ bus, log, channel: DIRECT.realtimeBroadcast, handle: (update) => hub.broadcast(update) });
  stops.push(async () => pilots.stop(), async () => everyone.stop());
  return async () => {
    await Promise.all(stops.map((stop) => stop()));
  };
}

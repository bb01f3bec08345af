import { withMessageContext, type Bus, type Logger } from '@crewswap/kit';
import { EVENT_DATA, EventEnvelope, REALTIME_BROADCAST, realtimePilotSubject, SseTripsAdded, SseTripsUpdated, SUBJECTS, type StreamName } from '@crewswap/proto';
import { z } from 'zod';
import { DeliverPolicy } from 'nats';
import type { Hub } from '../domain/hub';
import { rosterNotice, tripNotice } from '../domain/messages';

type Handler = (subject: string, event: EventEnvelope) => void;

/**
 * An ordered, ephemeral consumer from now on, one per process, like the session guard's: each
 * replica reads every event and delivers to its own streams. Nothing is replayed after a
 * restart: a client that reconnects refreshes its trips anyway.
 */
async function follow(bus: Bus, log: Logger, stream: StreamName, filter: string, handle: Handler): Promise<() => Promise<void>> {
  const consumer = await bus.js.consumers.get(bus.stream(stream), { filterSubjects: bus.subject(filter), deliver_policy: DeliverPolicy.New });
  const messages = await consumer.consume();
  const done = (async () => {
    for await (const message of messages) {
      const subject = bus.unprefix(message.subject);
      // Delivery to the pilot's streams is the last hop of the trace that changed the trip.
      await withMessageContext(message.headers, `deliver ${subject}`, async () => {
        try {
          handle(subject, EventEnvelope.parse(message.json()));
        } catch (error) {
          log.warn({ err: error, subject: message.subject }, 'ignoring an unreadable event');
        }
      });
    }
  })();
  return async () => {
    await messages.close();
    await done;
  };
}

/** Trip changes become 'trips-updated' for the pilot's other channels; imports become 'trips added'. */
export async function startFeeds(deps: { bus: Bus; log: Logger; hub: Hub }): Promise<() => Promise<void>> {
  const { bus, log, hub } = deps;
  const tripSubjects = new Set<string>([SUBJECTS.tripCreated, SUBJECTS.tripUpdated, SUBJECTS.tripOffered, SUBJECTS.tripDeleted]);
  const stops = [
    await follow(bus, log, 'TRIPS', 'trips.trip.>', (subject, event) => {
      if (!tripSubjects.has(subject)) return;
      const data = EVENT_DATA[subject as typeof SUBJECTS.tripDeleted | typeof SUBJECTS.tripCreated].parse(event.data);
      const notice = tripNotice(data, event.occurredAt);
      if (notice) hub.deliver(notice.pilotId, notice.message, notice.exceptSessionId);
    }),
    await follow(bus, log, 'ROSTER', SUBJECTS.rosterProcessed, (_subject, event) => {
      const notice = rosterNotice(EVENT_DATA[SUBJECTS.rosterProcessed].parse(event.data), event.occurredAt);
      hub.deliver(notice.pilotId, notice.message);
    }),
  ];
  // Any service may also tell a pilot's open apps (or all of them) something directly, on core
  // NATS: not stored, every replica hears it. Only updates travel this way; a session's end
  // comes from auth's revocations alone.
  const Direct = z.discriminatedUnion('type', [SseTripsUpdated, SseTripsAdded]);
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

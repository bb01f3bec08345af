import { HttpError, conflict, type Clock, type Db } from '@crewswap/kit';
import { ImportTrip, ImportTripsReply, ImportTripsRequest, TRIP_MESSAGES, addDays, outOfRangeDate, type TripChangeChannel, type TripSource, type Trip } from '@crewswap/proto';
import type { z } from 'zod';
import type { AirportRepository } from '../data/airports';
import type { PilotRepository } from '../data/pilots';
import type { TripFields, TripRepository } from '../data/trips';
import type { TripEvents } from './events';
import type { KnownAirports } from './known-airports';
import { coveredPeriod, diffRoster, isRosterTripIn, sameDutyKey } from './roster-diff';
import { allowedAircraft, checkDates, checkFlightNumbers, describeTrip, invalidAirports, isStandbyDuty, normalizeFlightNo, normalizeRoute, routeCodes } from './rules';

type ImportTrip = z.infer<typeof ImportTrip>;
type Reply = z.infer<typeof ImportTripsReply>;
type Request = z.infer<typeof ImportTripsRequest>;

/** The channel an import's changes are told by, and the source its trips keep: a fetched roster is a roster file, as an upload's. */
const BY_SOURCE: Record<Request['source'], { channel: TripChangeChannel; tripSource: TripSource }> = {
  upload: { channel: 'roster_upload', tripSource: 'upload' },
  email: { channel: 'roster_email', tripSource: 'email' },
  subscription: { channel: 'roster_subscription', tripSource: 'upload' },
};

/** A trip as the import reply names it (before and after a roster change). */
function asImported(trip: Trip): ImportTrip {
  const { flightNoStart, flightNoEnd, aircraft, route, startDate, endDate, icsDescription } = trip;
  return { flightNoStart, flightNoEnd, aircraft, route, startDate, endDate, icsDescription };
}

/** A roster entry's duty times; what it does not give is not known. */
function timesOf(item: Partial<Pick<Trip, 'reportAt' | 'releaseAt' | 'sectors'>>): Pick<Trip, 'reportAt' | 'releaseAt' | 'sectors'> {
  return { reportAt: item.reportAt ?? null, releaseAt: item.releaseAt ?? null, sectors: item.sectors ?? null };
}

function sameTimes(a: Pick<Trip, 'reportAt' | 'releaseAt' | 'sectors'>, b: Pick<Trip, 'reportAt' | 'releaseAt' | 'sectors'>): boolean {
  // Field by field: jsonb keeps an object's keys in an order of its own.
  const text = (sectors: Trip['sectors']) => JSON.stringify(sectors?.map((s) => [s.flightNo, s.from, s.to, s.departAt, s.arriveAt, s.positioning]) ?? null);
  return a.reportAt === b.reportAt && a.releaseAt === b.releaseAt && text(a.sectors) === text(b.sectors);
}

/** Trips that ended more than this many days ago are skipped (the default cleanup would remove them). */
export const IMPORT_KEEP_ENDED_DAYS = 7;

/**
 * Stores a parsed roster for roster-ingest, in one transaction holding the pilot's row (so two
 * imports of one pilot apply one after the other): it is compared with the pilot's trips from
 * earlier rosters over the period it covers (roster-diff.ts), so changed duties are updated (an
 * offer on them withdrawn) and duties it no longer has are deleted; the same duty unchanged, or
 * the same as a typed trip, counts as a duplicate; a new duty overlapping a trip is reported as a
 * conflict; trips that ended more than 7 days ago are skipped with a reason.
 */
export function createImportTrips(deps: {
  db: Db;
  trips: TripRepository;
  pilots: PilotRepository;
  airports: AirportRepository;
  knownAirports: KnownAirports;
  events: TripEvents;
  clock: Clock;
}) {
  const { db, trips, pilots, airports, knownAirports, events, clock } = deps;

  return {
    async execute(input: Request): Promise<Reply> {
      // The airports are read before the transaction, side by side: they do not depend on the
      // pilot's trips, so the pilot's lock is not held while they are read. Every code the roster
      // names is checked at once, mostly against the in-memory copy.
      const codes = [...new Set(input.trips.flatMap((item) => normalizeRoute(item.route).split('-').map((code) => code.trim())).filter((code) => /^[A-Z]{3}$/.test(code)))];
      const [excludedAirports, known] = await Promise.all([airports.listExcluded(), knownAirports.known(codes)]);
      const excluded = new Set(excludedAirports.map((airport) => airport.iataCode));
      return db.transaction(async (trx) => {
        if (input.importId) {
          // Taken first, under its primary key: a concurrent repeat waits here, then answers the stored reply.
          const claimed = await trx('roster_imports')
            .insert({ import_id: input.importId, pilot_id: input.pilotId, reply: '{}' })
            .onConflict('import_id')
            .ignore()
            .returning('import_id');
          if (claimed.length === 0) {
            const done = await trx('roster_imports').where({ import_id: input.importId }).first();
            return ImportTripsReply.parse(done.reply);
          }
        }
        const pilot = await pilots.find(input.pilotId, trx, true);
        // 409 rather than 503: request/reply hides the text of 5xx answers, and the caller shows this one.
        if (!pilot) throw conflict(TRIP_MESSAGES.profileNotReady);
        const all = await trips.listByPilot(input.pilotId, trx);
        const cutoff = addDays(clock.today(), -IMPORT_KEEP_ENDED_DAYS);
        const reply: Reply = { processedCount: 0, duplicateCount: 0, conflicts: [], skipped: [], changes: [] };
        const candidates: (TripFields & { item: ImportTrip })[] = [];

        for (const item of input.trips) {
          let fields: TripFields;
          try {
            fields = shape(item);
          } catch (error) {
            if (!(error instanceof HttpError)) throw error;
            reply.skipped.push({ trip: item, reason: error.message });
            continue;
          }
          if (fields.endDate < cutoff) {
            reply.skipped.push({ trip: item, reason: `Trip ended more than ${IMPORT_KEEP_ENDED_DAYS} days ago` });
            continue;
          }
          const outOfRange = outOfRangeDate([fields.startDate, fields.endDate], clock.today());
          if (outOfRange) {
            reply.skipped.push({ trip: item, reason: outOfRange });
            continue;
          }
          candidates.push({ ...fields, item });
        }

        // The pilot's trips from earlier rosters over the period this one covers are its to keep,
        // change or remove (roster-diff.ts); typed trips and trips outside it are only checked against.
        const period = coveredPeriod(candidates);
        const fromRosters = period ? all.filter((trip) => isRosterTripIn(trip, period)) : [];
        const diff = diffRoster(candidates, fromRosters, reply.skipped.map(({ trip }) => trip));
        // What a new or changed duty must not overlap: every trip the roster leaves in place.
        const replaced = new Set([...diff.removed, ...diff.changed.map(({ trip }) => trip)]);
        const held: Pick<Trip, 'flightNoStart' | 'flightNoEnd' | 'startDate' | 'endDate'>[] = all.filter((trip) => !replaced.has(trip));
        reply.duplicateCount = diff.unchanged.length;
        const origin = { channel: BY_SOURCE[input.source].channel };

        const removedIds = diff.removed.map((trip) => trip.id);
        const removed = removedIds.length > 0 ? await trips.deleteWhere((query) => query.where({ pilot_id: input.pilotId }).whereIn('id', removedIds), trx) : [];
        for (const { trip } of removed) reply.changes.push({ kind: 'removed', tripId: trip.id, before: asImported(trip) });

        // Every changed duty in one statement, once the conflicts are known.
        const changes: { trip: Trip; fields: Partial<TripFields> }[] = [];
        for (const { item, trip } of diff.changed) {
          const { item: _item, ...fields } = item;
          const overlap = held.find((other) => other.startDate <= fields.endDate && other.endDate >= fields.startDate);
          if (overlap) {
            held.push(trip);
            reply.conflicts.push({ trip: item.item, conflictsWith: describeTrip(overlap) });
            continue;
          }
          held.push(fields);
          // The roster decides the duty; the pilot's Keep flag stays, an offer is withdrawn (its
          // matches clear through the update event), since others would be chasing the old duty.
          changes.push({
            trip,
            fields: {
              flightNoStart: fields.flightNoStart,
              flightNoEnd: fields.flightNoEnd,
              aircraft: fields.aircraft,
              route: fields.route,
              startDate: fields.startDate,
              endDate: fields.endDate,
              icsDescription: fields.icsDescription,
              isStandby: fields.isStandby,
              isSwappable: false,
              ...timesOf(fields),
            },
          });
        }
        const updated = await trips.updateMany(changes.map(({ trip, fields }) => ({ id: trip.id, fields })), trx);
        // The same duty with times it lacked or times crewing moved (issue 55): stored quietly, not
        // a roster change, so an offer on it stays.
        const retimed = diff.unchanged.filter(({ item, trip }) => !sameTimes(timesOf(item), trip)).map(({ item, trip }) => ({ id: trip.id, fields: timesOf(item) }));
        updated.forEach((change, index) => {
          const before = changes[index]!.trip;
          reply.changes.push({ kind: 'changed', tripId: before.id, before: asImported(before), after: asImported(change.trip) });
        });

        const accepted: TripFields[] = [];
        for (const candidate of diff.added) {
          const { item, ...fields } = candidate;
          // Duplicates first: a re-import is all duplicates, not all conflicts.
          const duplicate = held.some((trip) => sameDutyKey(trip) === sameDutyKey(fields));
          if (duplicate) {
            reply.duplicateCount += 1;
            continue;
          }
          const overlap = held.find((trip) => trip.startDate <= fields.endDate && trip.endDate >= fields.startDate);
          if (overlap) {
            reply.conflicts.push({ trip: item, conflictsWith: describeTrip(overlap) });
            continue;
          }
          held.push(fields);
          accepted.push(fields);
        }

        const stored = await trips.insertMany(input.pilotId, accepted, trx);
        const quietlyUpdated = await trips.updateMany(retimed, trx);
        await events.importedMany(trx, { deleted: removed, updated: [...updated, ...quietlyUpdated], created: stored }, origin);
        for (const trip of stored) reply.changes.push({ kind: 'added', tripId: trip.id, after: asImported(trip) });
        reply.processedCount = stored.length;
        if (input.importId) await trx('roster_imports').where({ import_id: input.importId }).update({ reply: JSON.stringify(reply) });
        return reply;

        function shape(item: ImportTrip): TripFields {
          const { flightNoStart, flightNoEnd } = checkFlightNumbers(normalizeFlightNo(item.flightNoStart), normalizeFlightNo(item.flightNoEnd));
          const route = normalizeRoute(item.route);
          checkDates(item.startDate, item.endDate, clock.today(), { mustNotHaveEnded: false });
          const standby = isStandbyDuty(flightNoStart, flightNoEnd, route);
          let storedRoute = route;
          if (!standby) {
            // Excluded airports (home bases, technical stops) are never a destination.
            const codes = route
              .split('-')
              .map((code) => code.trim())
              .filter((code) => code && !excluded.has(code));
            const outstations = routeCodes(codes.join('-'), 'No destination outside the excluded airports');
            invalidAirports(outstations, known);
            storedRoute = outstations.join('-');
          }
          const choices = allowedAircraft(pilot!.fleet);
          return {
            flightNoStart,
            flightNoEnd,
            aircraft: standby ? null : (item.aircraft ?? (choices.length === 1 ? choices[0]! : null)),
            route: storedRoute,
            startDate: item.startDate,
            endDate: item.endDate,
            isSwappable: false,
            offerType: 'swap',
            training: false,
            requested: false,
            companions: null,
            swapDescription: null,
            // Roster text may hold a NUL, which Postgres cannot store.
            icsDescription: item.icsDescription?.replace(/\u0000/g, '') ?? null,
            searchStartDate: null,
            searchEndDate: null,
            isStandby: standby,
            source: BY_SOURCE[input.source].tripSource,
            ...timesOf(item),
          };
        }
      });
    },
  };
}

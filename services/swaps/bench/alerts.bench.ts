/**
 * Issue 39 at airline scale: `npx tsx services/swaps/bench/alerts.bench.ts [--pilots N] [--trips N] [--offers N] [--new N]`
 * (part of `npm run bench -w @crewswap/swaps`). Loads pilots with trips (a fifth offered), 3 wishes
 * each and the daily digest on for all at one hour, then prints a new offer's alert recipients,
 * wishes included (target p95 < 100 ms), and one digest run for every pilot, built and handed to
 * the mailer through the outbox (target < 60 s). It prints figures; it asserts nothing.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { deleteStreams, fixedClock } from '@crewswap/kit';
import { benchBaseConfig, createTestDatabase, testPilot, testTrip } from '@crewswap/kit-testing';
import { addDays, FLEETS, type Pilot, type Trip } from '@crewswap/proto';
import { createApp } from '../src/app';
import type { PilotChange, TripChange } from '../src/data/read-model';
import { createWishRepository } from '../src/data/wishes';

const { values: flags } = parseArgs({
  options: {
    pilots: { type: 'string', default: '10000' },
    trips: { type: 'string', default: '20' },
    offers: { type: 'string', default: '100' },
    new: { type: 'string', default: '1000' },
  },
});
const PILOTS = Number(flags.pilots);
const TRIPS = Number(flags.trips);
const TODAY = '2026-11-01';
const AIRPORTS = ['JFK', 'LAX', 'SEA', 'BOS', 'MCO', 'JNB', 'DEL', 'HKG', 'SFO', 'ATL', 'LAS', 'MIA'];

let seed = 7;
const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function main(): Promise<void> {
  const database = await createTestDatabase();
  const config = { ...benchBaseConfig(database.url), PORT: 0, SETTINGS_RPC_TIMEOUT_MS: 0, TRIPS_CATCH_UP_MS: 0, OFFER_ALERT_MAX_AGE_MINUTES: 1440, ROSTER_CACHE_PILOTS: 4000, APP_ORIGIN: 'http://localhost:8080', PRODUCT_NAME: 'CrewSwap' };
  const clock = fixedClock(`${TODAY}T12:00:00Z`);
  const service = await createApp(config, { clock });
  const { db } = service.runtime;
  try {
    const loadStarted = performance.now();
    const stamp = { version: 1, at: new Date('2026-10-01T00:00:00Z') };
    const offers: Trip[] = [];
    for (let first = 0; first < PILOTS; first += 50) {
      const pilots: Pilot[] = Array.from({ length: Math.min(50, PILOTS - first) }, (_, i) =>
        testPilot({ employeeId: String(200000 + first + i), email: `alerts${first + i}@fly.virgin.com`, rank: random() < 0.5 ? 'CP' : 'FO', fleet: pick(FLEETS), ltc: false }),
      );
      await service.readModel.applyPilotChanges(db, pilots.map((pilot): PilotChange => ({ kind: 'profile', pilot, stamp })));
      const trips = pilots.flatMap((pilot) => {
        let day = addDays(TODAY, between(-3, 2));
        return Array.from({ length: TRIPS }, () => {
          const length = between(1, 5);
          const trip = testTrip({
            pilotId: pilot.id,
            aircraft: pilot.fleet === 'SFF' ? pick(['A330', 'A350', 'SFF'] as const) : pilot.fleet,
            route: pick(AIRPORTS),
            startDate: day,
            endDate: addDays(day, length - 1),
            isSwappable: random() < 0.2,
          });
          day = addDays(day, length + between(2, 6));
          return trip;
        });
      });
      for (let i = 0; i < trips.length; i += 1000) await service.readModel.applyTripChanges(db, trips.slice(i, i + 1000).map((trip): TripChange => ({ kind: 'trip', trip, stamp })));
      offers.push(...trips.filter((trip) => trip.isSwappable && trip.startDate >= TODAY));
      const wishes = pilots.flatMap((pilot) =>
        Array.from({ length: 3 }, () => {
          const dated = random() < 0.5;
          const start = addDays(TODAY, between(0, 60));
          const own = trips.filter((trip) => trip.pilotId === pilot.id);
          return {
            id: randomUUID(),
            pilot_id: pilot.id,
            destinations: Array.from(new Set(Array.from({ length: between(1, 3) }, () => pick(AIRPORTS)))),
            start_date: dated ? start : null,
            end_date: dated ? addDays(start, 14) : null,
            for_trip_id: random() < 0.3 ? pick(own).id : null,
            created_at: new Date(),
          };
        }),
      );
      await db('wishes').insert(wishes);
      await db('alert_preferences').insert(pilots.map((pilot) => ({ pilot_id: pilot.id, swap_alerts: true, version: 1, digest: JSON.stringify({ hour: 7, timeZone: 'Europe/London' }) })));
    }
    for (const table of ['pilots', 'trips', 'offers', 'wishes', 'alert_preferences']) await db.raw(`VACUUM ANALYZE ${table}`);
    console.log(`Loaded ${PILOTS} pilots, ${PILOTS * TRIPS} trips (${offers.length} upcoming offers), ${PILOTS * 3} wishes in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`);

    // A new offer's recipients: the plain ones and the wishes', as alertOffer asks them.
    const settingDays = await service.readModel.swapSearchDays();
    const wishRepository = createWishRepository(db);
    const times: number[] = [];
    let wished = 0;
    let recipients = 0;
    for (let i = 0; i < Number(flags.offers); i += 1) {
      const offer = offers[Math.floor((i * offers.length) / Number(flags.offers))]!;
      const owner = (await service.readModel.findPilot(offer.pilotId))!;
      const started = performance.now();
      const [plain, wishes] = await Promise.all([
        service.readModel.findRecipients({ owner, offer, settingDays }),
        wishRepository.findAnswered({ owner, offer, settingDays }),
      ]);
      times.push(performance.now() - started);
      wished += wishes.length;
      recipients += plain.length;
    }
    times.sort((a, b) => a - b);
    console.log(
      `Alert recipients with wishes (${flags.offers} offers): p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms (target < 100 ms); ` +
        `${(recipients / times.length).toFixed(0)} plain and ${(wished / times.length).toFixed(1)} wish recipients an offer`,
    );

    // The day's new offers, then one digest run at everybody's hour.
    const fresh = offers.filter((_, i) => i % Math.max(1, Math.floor(offers.length / Number(flags.new))) === 0).slice(0, Number(flags.new));
    await db('trips').whereIn('id', fresh.map((trip) => trip.id)).update({ event_at: new Date(`${TODAY}T20:00:00Z`) });
    clock.set(`${addDays(TODAY, 1)}T07:00:00Z`);
    const digestStarted = performance.now();
    const result = await service.digest.execute();
    const seconds = (performance.now() - digestStarted) / 1000;
    console.log(`Daily digest for ${result.readers} pilots (${fresh.length} new offers): ${result.mailed} mails built and handed to the mailer in ${seconds.toFixed(1)} s (target < 60 s)`);
  } finally {
    await deleteStreams(service.runtime.bus);
    await service.close();
    await database.drop();
  }
}

await main();

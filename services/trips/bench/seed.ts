/**
 * What both trips benches start from: the service on its own temporary database and NATS prefix,
 * filled with PILOTS directory rows holding TRIPS_PER_PILOT trips each. Each bench brings its own
 * rows (the SQL), as each measures different reads.
 */
import { systemClock, type Db } from '@crewswap/kit';
import type { Knex } from 'knex';
import { benchBaseConfig, createTestDatabase } from '@crewswap/kit-testing';
import { createApp } from '../src/app';

export const PILOTS = Number(process.env.BENCH_PILOTS ?? 10_000);
export const TRIPS_PER_PILOT = 40;

async function time(label: string, work: () => Promise<unknown>): Promise<void> {
  const started = performance.now();
  await work();
  console.log(`${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

export async function startBenchService() {
  const database = await createTestDatabase();
  const service = await createApp(
    { ...benchBaseConfig(database.url), PORT: 0, PROFILE_WAIT_MS: 0 },
    { settings: { get: async () => '4' } },
  );
  return { database, service, db: service.runtime.db, today: systemClock.today() };
}

/**
 * Inserts the pilots (`pilots` takes their count as its one binding), then their trips, each in
 * one statement and timed; then analyzes both tables so the planner sees their real size.
 */
export async function seed(db: Db, sql: { pilots: string; trips: string; tripBindings: readonly Knex.RawBinding[] }): Promise<void> {
  await time(`${PILOTS} pilots (directory rows)`, () => db.raw(sql.pilots, [PILOTS]));
  await time(`${PILOTS * TRIPS_PER_PILOT} trips`, () => db.raw(sql.trips, sql.tripBindings));
  await db.raw('ANALYZE trips');
  await db.raw('ANALYZE pilots');
}

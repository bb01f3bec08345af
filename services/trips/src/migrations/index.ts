import type { Migration } from '@crewswap/kit';
import { ALWAYS_EXCLUDED_AIRPORTS, OFFER_TYPES } from '@crewswap/proto';
import type { Knex } from 'knex';
import { loadAirportSeed } from './airports';

export const migrations: Record<string, Migration> = {
  '0001_pilot_directory': {
    async up(knex: Knex) {
      // A projection of auth's pilots: what trip rules need (rank, fleet, LTC, swap window).
      await knex.schema.createTable('pilots', (table) => {
        table.uuid('id').primary();
        table.string('employee_id', 20).notNullable();
        table.string('first_name', 100).notNullable();
        table.string('last_name', 100).notNullable();
        table.string('rank', 3).notNullable();
        table.string('fleet', 4).notNullable();
        table.string('base', 3).notNullable();
        table.boolean('apic').notNullable();
        table.boolean('ltc').notNullable();
        table.boolean('usual_req').notNullable();
        table.boolean('test_data').notNullable();
        table.integer('search_day_range');
        table.jsonb('profile').notNullable();
        /** When the applied profile event happened: older events never overwrite newer ones. */
        table.timestamp('occurred_at', { useTz: true }).notNullable();
        /** Kept as a tombstone so a late profile event cannot bring a deleted pilot back. */
        table.boolean('deleted').notNullable().defaultTo(false);
      });
    },
  },
  '0002_trips': {
    async up(knex: Knex) {
      await knex.schema.createTable('trips', (table) => {
        table.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
        table.uuid('pilot_id').notNullable();
        table.string('flight_no_start', 5).notNullable();
        table.string('flight_no_end', 5).notNullable();
        table.string('aircraft', 4);
        table.string('route', 20).notNullable();
        table.date('start_date').notNullable();
        table.date('end_date').notNullable();
        table.boolean('is_swappable').notNullable().defaultTo(false);
        table.boolean('training').notNullable().defaultTo(false);
        table.boolean('requested').notNullable().defaultTo(false);
        table.integer('companions');
        table.string('swap_description', 100);
        table.text('ics_description');
        table.date('search_start_date');
        table.date('search_end_date');
        table.boolean('is_standby').notNullable().defaultTo(false);
        /** Bumped on every change and sent as the event version, so read models apply in order. */
        table.integer('version').notNullable().defaultTo(1);
        table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      });
      // A pilot's list (sorted by start) and the overlap check both read by pilot and dates.
      await knex.raw('CREATE INDEX trips_pilot_dates ON trips (pilot_id, start_date, end_date)');
      // The daily purge reads by end date.
      await knex.raw('CREATE INDEX trips_end_date ON trips (end_date)');
      await knex.schema.createTable('purge_runs', (table) => {
        table.date('london_date').primary();
        table.integer('trips_deleted').notNullable();
        table.timestamp('ran_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      });
    },
  },
  '0003_airports': {
    async up(knex: Knex) {
      await knex.schema.createTable('iata_codes', (table) => {
        table.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
        table.string('iata_code', 3).notNullable().unique();
        table.string('icao_code', 4);
        table.string('continent', 2);
        table.string('iso_country', 2);
        table.string('municipality', 100);
      });
      await knex.schema.createTable('excluded_airports', (table) => {
        table.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
        table.string('iata_code', 3).notNullable().unique();
      });
      const seed = await loadAirportSeed();
      const rows = seed.map((airport) => ({
        iata_code: airport.iataCode,
        icao_code: airport.icaoCode,
        continent: airport.continent,
        iso_country: airport.isoCountry,
        municipality: airport.municipality?.slice(0, 100) ?? null,
      }));
      for (let i = 0; i < rows.length; i += 1000) await knex('iata_codes').insert(rows.slice(i, i + 1000));
      await knex('excluded_airports').insert(ALWAYS_EXCLUDED_AIRPORTS.map((code) => ({ iata_code: code })));
    },
  },
  '0004_trip_source_and_imports': {
    async up(knex: Knex) {
      await knex.schema.alterTable('trips', (table) => {
        table.string('source', 10).notNullable().defaultTo('manual');
      });
      // The reply of each roster import by id, so a repeated request (a redelivered mail) stores nothing twice.
      await knex.schema.createTable('roster_imports', (table) => {
        table.uuid('import_id').primary();
        table.uuid('pilot_id').notNullable();
        table.jsonb('reply').notNullable();
        table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      });
    },
  },  '0005_purge_schedule_in_admin': {
    async up(knex: Knex) {
      // Admin's cleanup configuration schedules purges now; trips no longer records daily runs.
      await knex.schema.dropTableIfExists('purge_runs');
    },
  },
  '0005_crew_and_whatsapp_groups': {
    async up(knex: Knex) {
      // Crew on a trip: everyone holding the same start flight on the same start date.
      await knex.raw('CREATE INDEX trips_flight_start ON trips (flight_no_start, start_date)');
      // Trip Search also finds the return flight on its day.
      await knex.raw('CREATE INDEX trips_flight_end ON trips (flight_no_end, end_date)');
      // Crossovers and Trip Search by airport: a route holds at most two codes, so one index per
      // position, by code then start date, finds the trips at an airport starting in a few days.
      await knex.raw(`CREATE INDEX trips_route_first ON trips (split_part(route, '-', 1), start_date)`);
      await knex.raw(`CREATE INDEX trips_route_second ON trips (split_part(route, '-', 2), start_date) WHERE split_part(route, '-', 2) <> ''`);
      // The longest trip bounds how far before a day a trip covering it can start.
      await knex.raw('CREATE INDEX trips_length ON trips ((end_date - start_date))');
      // Master Calendar: the pilots of a rank and fleet with Master Roster on.
      await knex.raw('CREATE INDEX pilots_rank_fleet ON pilots (rank, fleet) WHERE usual_req AND NOT deleted');
      // One group per flight and start date, shared by the whole crew; only pending and active are stored.
      await knex.schema.createTable('whatsapp_groups', (table) => {
        table.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
        table.string('flight_no_start', 5).notNullable();
        table.date('start_date').notNullable();
        table.date('end_date').notNullable();
        table.string('group_name', 100).notNullable();
        table.string('invite_link', 300);
        table.uuid('created_by_pilot_id').notNullable();
        table.string('creator_name', 201).notNullable();
        table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        table.unique(['flight_no_start', 'start_date']);
      });
      await knex.raw('CREATE INDEX whatsapp_groups_end_date ON whatsapp_groups (end_date)');
    },
  },
  '0006_calendar_feeds': {
    async up(knex: Knex) {
      // One private feed per pilot. Only the token's hash is kept: a copy of the database gives
      // nobody a feed's address, and a rotation replaces the hash, so the old address stops.
      await knex.schema.createTable('calendar_feeds', (table) => {
        table.uuid('pilot_id').primary();
        table.string('token_hash', 64).notNullable().unique();
        table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      });
    },
  },
  '0007_agreed_swaps': {
    async up(knex: Knex) {
      // The trips in a swap agreed in swaps (issue 37) and not cancelled or refused since: the
      // calendar feed titles them 'Swap agreed' (issue 38).
      await knex.schema.createTable('agreed_swaps', (table) => {
        table.uuid('trip_id').primary();
        table.uuid('agreement_id').notNullable().index();
      });
    },
  },
  '0008_offer_type': {
    async up(knex: Knex) {
      // How a trip is offered (issue 53): every trip offered before give-aways existed was a swap.
      const allowed = OFFER_TYPES.map((type) => `'${type}'`).join(', ');
      await knex.raw(`ALTER TABLE trips ADD COLUMN offer_type text NOT NULL DEFAULT 'swap' CHECK (offer_type IN (${allowed}))`);
    },
  },
  '0009_duty_times': {
    async up(knex: Knex) {
      // A trip's check-in, check-out and sectors (issue 55): null where the roster or the pilot did not give them.
      await knex.raw('ALTER TABLE trips ADD COLUMN report_at timestamptz, ADD COLUMN release_at timestamptz, ADD COLUMN sectors jsonb');
    },
  },
};

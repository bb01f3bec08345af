import type { Migration } from '@crewswap/kit';
import { OFFERS_CHANNEL, RELOAD_ALL } from '../data/offer-index';
import { OFFER_COLUMNS, OFFER_ROWS_SQL } from '../data/offer-rows';
import { ROSTERS_CHANNEL } from '../data/roster-cache';

/**
 * The read model is a projection of the trips and auth events: every row remembers the
 * (version, occurredAt) of the event that wrote it, so an older event arriving late changes nothing
 * and a replay of the streams converges to the same rows. `data` and `contact` hold the proto
 * shapes (Trip, PilotContact) for answers; the other columns exist to be filtered and indexed.
 */
export const migrations: Record<string, Migration> = {
  '0001_read_model': {
    async up(knex) {
      await knex.schema.createTable('pilots', (table) => {
        table.uuid('id').primary();
        table.string('rank', 4);
        table.string('fleet', 4);
        table.boolean('ltc').notNullable().defaultTo(false);
        table.integer('search_day_range');
        // A deleted pilot stays: their remaining offers still count and still need a contact.
        table.boolean('deleted').notNullable().defaultTo(false);
        // What other pilots see of this one (proto PilotContact), ready to go into answers. The
        // rest of the profile is not kept: a narrow row keeps the offers join cheap.
        table.jsonb('contact');
        table.integer('event_version').notNullable();
        table.timestamp('event_at', { useTz: true }).notNullable();
      });
      await knex.schema.createTable('trips', (table) => {
        table.uuid('id').primary();
        table.uuid('pilot_id').notNullable();
        table.string('aircraft', 4);
        table.date('start_date');
        table.date('end_date');
        table.boolean('is_swappable').notNullable().defaultTo(false);
        table.boolean('training').notNullable().defaultTo(false);
        table.boolean('is_standby').notNullable().defaultTo(false);
        table.date('search_start_date');
        table.date('search_end_date');
        // A deleted trip is kept as a tombstone so that a late update cannot bring it back.
        table.boolean('deleted').notNullable().defaultTo(false);
        table.jsonb('data');
        table.integer('event_version').notNullable();
        table.timestamp('event_at', { useTz: true }).notNullable();
      });
      await knex.schema.createTable('settings', (table) => {
        table.string('key', 100).primary();
        table.text('value').notNullable();
        table.timestamp('event_at', { useTz: true }).notNullable();
      });
      await knex.schema.createTable('alerts_sent', (table) => {
        table.uuid('trip_id').notNullable();
        table.uuid('recipient_id').notNullable();
        table.string('description_hash', 64).notNullable();
        table.timestamp('sent_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        table.primary(['trip_id', 'recipient_id', 'description_hash']);
      });
    },
  },
  '0002_match_indexes': {
    async up(knex) {
      // Where `npm run bench -- --explain` shows them used (10,000 pilots, 400,000 trips).
      // Find swaps: a bitmap index scan with both the window and the aircraft as index conditions.
      await knex.raw('CREATE INDEX trips_offers_by_start ON trips (start_date, aircraft) WHERE is_swappable AND NOT deleted AND NOT is_standby');
      // Alert recipients: a bitmap index scan of the live trips starting near the offer.
      await knex.raw('CREATE INDEX trips_live_by_start ON trips (start_date) WHERE NOT deleted AND NOT is_standby');
    },
  },
  '0003_alert_preferences': {
    async up(knex) {
      // Notifications' preferences, projected: who wants swap alerts (a pilot absent here does).
      await knex.schema.createTable('alert_preferences', (table) => {
        table.uuid('pilot_id').primary();
        table.boolean('swap_alerts').notNullable();
        table.integer('version').notNullable();
      });
    },
  },
  '0004_offer_rows': {
    async up(knex) {
      // Find swaps read ~1,900 trip rows over ~1,800 heap pages and scanned every pilot for each
      // answer. An offer row carries what the filter needs of its pilot (rank, fleet, LTC
      // captain) and the answer already trimmed to text, so one covering index answers it with an
      // index-only scan: no join, no heap visit. The projections keep these rows in step with
      // the trips and pilots they copy (refreshOffers). Both answer texts are bounded (a
      // description is at most 100 characters), well inside a btree entry.
      await knex.schema.createTable('offers', (table) => {
        table.uuid('trip_id').primary();
        table.uuid('pilot_id').notNullable();
        table.string('rank', 4).notNullable();
        table.string('fleet', 4).notNullable();
        table.boolean('ltc_captain').notNullable();
        table.string('aircraft', 4).notNullable();
        table.date('start_date').notNullable();
        table.date('end_date').notNullable();
        table.boolean('training').notNullable();
        table.text('trip_json').notNullable();
        table.text('pilot_json').notNullable();
      });
      await knex.raw('CREATE INDEX offers_pilot ON offers (pilot_id)');
      // A pilot's change rewrites their offer rows from their live offers.
      await knex.raw('CREATE INDEX trips_offers_by_pilot ON trips (pilot_id) WHERE is_swappable AND NOT deleted AND NOT is_standby');
      // Equality first, then the arrays, then the range: the query's filters in that order.
      await knex.raw(
        'CREATE INDEX offers_match ON offers (rank, fleet, aircraft, start_date) INCLUDE (end_date, trip_id, pilot_id, training, ltc_captain, trip_json, pilot_json)',
      );
      // Filled by 0006_offer_mutual, once the rows have every column they are written with now.
    },
  },
  '0005_offer_notify': {
    async up(knex) {
      // Every replica holds the offers in memory (data/offer-index.ts) and re-reads the rows a
      // transaction changed when it commits: these triggers say which, by trip id, 200 to a
      // notice (a notice holds at most 8,000 bytes). A truncate asks for a reload.
      await knex.raw(`
        CREATE FUNCTION notify_offers_changed() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE ids text;
        BEGIN
          FOR ids IN SELECT string_agg(trip_id::text, ',') FROM (SELECT trip_id, (row_number() OVER ()) / 200 AS part FROM changed) numbered GROUP BY part LOOP
            PERFORM pg_notify('${OFFERS_CHANNEL}', ids);
          END LOOP;
          RETURN NULL;
        END $$`);
      await knex.raw(`
        CREATE FUNCTION notify_offers_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          PERFORM pg_notify('${OFFERS_CHANNEL}', '${RELOAD_ALL}');
          RETURN NULL;
        END $$`);
      await knex.raw('CREATE TRIGGER offers_inserted AFTER INSERT ON offers REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION notify_offers_changed()');
      await knex.raw('CREATE TRIGGER offers_updated AFTER UPDATE ON offers REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION notify_offers_changed()');
      await knex.raw('CREATE TRIGGER offers_deleted AFTER DELETE ON offers REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION notify_offers_changed()');
      await knex.raw('CREATE TRIGGER offers_truncated AFTER TRUNCATE ON offers FOR EACH STATEMENT EXECUTE FUNCTION notify_offers_truncated()');
    },
  },
  '0006_proposals': {
    async up(knex) {
      // Swap proposals and agreements (issue 37). Each keeps both sides as they were when it was
      // made (proto SwapSide), so the history reads the same after the trips change or go.
      await knex.schema.createTable('proposals', (table) => {
        table.uuid('id').primary();
        table.string('status', 16).notNullable();
        table.uuid('proposer_id').notNullable();
        table.uuid('proposer_trip_id').notNullable();
        table.uuid('owner_id').notNullable();
        table.uuid('owner_trip_id').notNullable();
        table.jsonb('proposer').notNullable();
        table.jsonb('owner').notNullable();
        // What a trip change must leave alone for the proposal to stay open (flights, dates, route, aircraft).
        table.text('proposer_trip_key').notNullable();
        table.text('owner_trip_key').notNullable();
        table.date('starts_on').notNullable();
        table.string('note', 200);
        table.string('reason', 200);
        table.uuid('counter_of');
        table.uuid('agreement_id');
        // The proposer's rank and fleet, for the admin dashboard's figures.
        table.string('rank', 4).notNullable();
        table.string('fleet', 4).notNullable();
        table.timestamp('created_at', { useTz: true }).notNullable();
        table.timestamp('decided_at', { useTz: true });
      });
      await knex.raw('CREATE INDEX proposals_owner ON proposals (owner_id, created_at DESC)');
      await knex.raw('CREATE INDEX proposals_proposer ON proposals (proposer_id, created_at DESC)');
      await knex.raw("CREATE INDEX proposals_open_owner_trip ON proposals (owner_trip_id) WHERE status = 'open'");
      await knex.raw("CREATE INDEX proposals_open_proposer_trip ON proposals (proposer_trip_id) WHERE status = 'open'");
      await knex.raw("CREATE INDEX proposals_open_start ON proposals (starts_on) WHERE status = 'open'");
      await knex.raw('CREATE INDEX proposals_created ON proposals (created_at)');
      // The same swap is proposed once while it is open.
      await knex.raw("CREATE UNIQUE INDEX proposals_one_open ON proposals (proposer_trip_id, owner_trip_id) WHERE status = 'open'");
      await knex.schema.createTable('agreements', (table) => {
        table.uuid('id').primary();
        table.uuid('proposal_id').notNullable().unique();
        table.string('status', 16).notNullable();
        table.uuid('proposer_id').notNullable();
        table.uuid('owner_id').notNullable();
        table.jsonb('proposer').notNullable();
        table.jsonb('owner').notNullable();
        table.string('rank', 4).notNullable();
        table.string('fleet', 4).notNullable();
        table.timestamp('agreed_at', { useTz: true }).notNullable();
        table.timestamp('closed_at', { useTz: true });
        table.uuid('closed_by');
      });
      await knex.raw('CREATE INDEX agreements_proposer ON agreements (proposer_id, agreed_at DESC)');
      await knex.raw('CREATE INDEX agreements_owner ON agreements (owner_id, agreed_at DESC)');
      await knex.raw('CREATE INDEX agreements_agreed ON agreements (agreed_at)');
      // A trip is in at most one live (agreed or approved) swap: its row here is the proof, and
      // the primary key refuses a second one whatever the race.
      await knex.schema.createTable('agreement_trips', (table) => {
        table.uuid('trip_id').primary();
        table.uuid('agreement_id').notNullable().references('id').inTable('agreements').onDelete('CASCADE');
      });
      await knex.raw('CREATE INDEX agreement_trips_agreement ON agreement_trips (agreement_id)');
    },
  },
  '0007_offer_mutual': {
    async up(knex) {
      // Mutual (issue 37) asks of each offer its owner's window (the trip's search range, else the
      // owner's day range, else the setting) and the days of the owner's other trips: the offer
      // row carries them, so the offer index holds them in memory. The SQL fallback asks trips.
      await knex.schema.alterTable('offers', (table) => {
        table.date('search_start_date');
        table.date('search_end_date');
        table.integer('day_range');
        table.specificType('other_trip_days', 'int[]').notNullable().defaultTo('{}');
      });
      // A pilot's live trips by date: their other trips for Mutual, in Find swaps and when offer rows are written.
      await knex.raw('CREATE INDEX trips_live_by_pilot ON trips (pilot_id, start_date) WHERE NOT deleted');
      // The SQL fallback reads the window's columns beside the rest: still from the index alone.
      await knex.raw('DROP INDEX offers_match');
      await knex.raw(
        'CREATE INDEX offers_match ON offers (rank, fleet, aircraft, start_date) INCLUDE (end_date, trip_id, pilot_id, training, ltc_captain, trip_json, pilot_json, search_start_date, search_end_date, day_range)',
      );
      await knex.raw('DELETE FROM offers');
      await knex.raw(`INSERT INTO offers ${OFFER_COLUMNS} ${OFFER_ROWS_SQL}`);
    },
  },
  '0008_offer_views': {
    async up(knex) {
      // Who found which offer in Find swaps (events/offer-views.ts), kept a day.
      await knex.schema.createTable('offer_views', (table) => {
        table.uuid('trip_id').notNullable();
        table.uuid('pilot_id').notNullable();
        table.timestamp('seen_at', { useTz: true }).notNullable();
        table.primary(['trip_id', 'pilot_id']);
        table.index(['seen_at']);
      });
    },
  },
  '0009_wishes': {
    async up(knex) {
      // Issue 39: what a pilot wants, matched here where the offers are (docs/DECISIONS.md).
      await knex.schema.createTable('wishes', (table) => {
        table.uuid('id').primary();
        table.uuid('pilot_id').notNullable().index();
        table.specificType('destinations', 'text[]').notNullable();
        table.date('start_date');
        table.date('end_date');
        table.uuid('for_trip_id');
        table.timestamp('created_at', { useTz: true }).notNullable();
      });
      // A new offer's wishes: those naming one of its airports, found without reading the rest.
      await knex.raw('CREATE INDEX wishes_destinations ON wishes USING gin (destinations)');
    },
  },
  '0010_digest': {
    async up(knex) {
      // The daily digest's hour (notifications' preferences, projected) and when it last went.
      await knex.schema.alterTable('alert_preferences', (table) => {
        table.jsonb('digest');
        table.timestamp('last_digest_at', { useTz: true });
      });
      await knex.raw('CREATE INDEX alert_preferences_digest ON alert_preferences (pilot_id) WHERE digest IS NOT NULL');
    },
  },
  '0011_proposal_mutual': {
    async up(knex) {
      // Whether a proposal was Mutual when made (issue 37), shown in the owner's list.
      await knex.schema.alterTable('proposals', (table) => {
        table.boolean('mutual').notNullable().defaultTo(false);
      });
    },
  },
  '0012_trips_askers': {
    async up(knex) {
      // A new offer's alert recipients and wishes (askersOf): the live trips on the aircraft its
      // owner flies, near its start, read from the index alone; the pilots' rank and fleet are
      // joined after. Scanning every trip near the start date took most of the time.
      await knex.raw(
        'CREATE INDEX trips_askers ON trips (aircraft, start_date) INCLUDE (pilot_id, id, training, search_start_date, search_end_date) WHERE NOT deleted AND NOT is_standby',
      );
    },
  },
  '0013_crewing_desk': {
    async up(knex) {
      // The crewing desk (issue 53): who decided is closed_by, when is closed_at; a refusal keeps
      // its reason, an approval the trips that changed hands (proto TripMove[]).
      await knex.schema.alterTable('agreements', (table) => {
        table.string('reason', 200);
        table.jsonb('moves');
      });
      // The desk lists pending requests oldest first, then decisions in the order they were made.
      await knex.raw("CREATE INDEX agreements_pending ON agreements (agreed_at) WHERE status = 'agreed'");
      await knex.raw("CREATE INDEX agreements_decided ON agreements (closed_at) WHERE status IN ('approved', 'refused')");
    },
  },
  '0014_giveaways': {
    async up(knex) {
      // Give away and pick up (issue 53). How each trip is offered, from trips' events: Find swaps
      // holds only 'swap' and 'either' offers (refreshOffers), Pick up a trip 'giveaway' and 'either'.
      await knex.raw("ALTER TABLE trips ADD COLUMN offer_type text NOT NULL DEFAULT 'swap'");
      await knex.raw("CREATE INDEX trips_giveaways ON trips (start_date) WHERE is_swappable AND NOT deleted AND offer_type <> 'swap'");
      // A pick-up gives no trip: the proposer's side has none.
      await knex.raw('ALTER TABLE proposals ALTER COLUMN proposer_trip_id DROP NOT NULL, ALTER COLUMN proposer_trip_key DROP NOT NULL');
      // The same pick-up is asked once while it is open (proposals_one_open cannot see a null trip).
      await knex.raw("CREATE UNIQUE INDEX proposals_one_open_pickup ON proposals (proposer_id, owner_trip_id) WHERE status = 'open' AND proposer_trip_id IS NULL");
      await knex.raw("ALTER TABLE agreements ADD COLUMN kind text NOT NULL DEFAULT 'swap' CHECK (kind IN ('swap', 'giveaway'))");
    },
  },
  '0015_duty_times': {
    async up(knex) {
      // Issue 55: each trip's duty times, from trips' events, for the flight time limitations
      // check (Find swaps, proposals, the desk) and Find swaps' sort by block. Rows written from
      // events that carried times get them here from the stored trip; older rows on their next event.
      await knex.raw('ALTER TABLE trips ADD COLUMN report_at timestamptz, ADD COLUMN release_at timestamptz, ADD COLUMN sectors jsonb, ADD COLUMN block_minutes int');
      await knex.raw(`UPDATE trips SET report_at = (data->>'reportAt')::timestamptz, release_at = (data->>'releaseAt')::timestamptz,
                             sectors = NULLIF(data->'sectors', 'null'::jsonb), block_minutes = (data->>'blockMinutes')::int
                       WHERE data IS NOT NULL AND (data->'reportAt' IS NOT NULL OR data->'sectors' IS NOT NULL)`);
      await knex.raw(
        'ALTER TABLE offers ADD COLUMN report_at timestamptz, ADD COLUMN release_at timestamptz, ADD COLUMN sectors jsonb, ADD COLUMN block_minutes int, ADD COLUMN flight_no_start text',
      );
      await knex.raw(`UPDATE offers o SET report_at = t.report_at, release_at = t.release_at, sectors = t.sectors, block_minutes = t.block_minutes,
                                          flight_no_start = t.data->>'flightNoStart'
                        FROM trips t WHERE t.id = o.trip_id AND t.data IS NOT NULL`);
    },
  },
  '0016_roster_notify': {
    async up(knex) {
      // Every replica keeps the rosters it has read for the flight time limitations check in
      // memory (data/roster-cache.ts) and forgets a pilot's when their trips or their base change:
      // these triggers say whose, one notice per pilot and transaction (Postgres folds identical
      // notices of a transaction into one). A truncate forgets every roster.
      await knex.raw(`
        CREATE FUNCTION notify_roster_changed() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          -- A trip that changes hands (a swap approved) changes two rosters.
          IF TG_OP <> 'INSERT' THEN PERFORM pg_notify('${ROSTERS_CHANNEL}', OLD.pilot_id::text); END IF;
          IF TG_OP <> 'DELETE' THEN PERFORM pg_notify('${ROSTERS_CHANNEL}', NEW.pilot_id::text); END IF;
          RETURN NULL;
        END $$`);
      await knex.raw(`
        CREATE FUNCTION notify_roster_pilot_changed() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          PERFORM pg_notify('${ROSTERS_CHANNEL}', OLD.id::text);
          RETURN NULL;
        END $$`);
      await knex.raw(`
        CREATE FUNCTION notify_rosters_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          PERFORM pg_notify('${ROSTERS_CHANNEL}', '${RELOAD_ALL}');
          RETURN NULL;
        END $$`);
      await knex.raw('CREATE TRIGGER trips_roster_changed AFTER INSERT OR UPDATE OR DELETE ON trips FOR EACH ROW EXECUTE FUNCTION notify_roster_changed()');
      // The base decides the rest minimum at home; a deleted pilot has no roster.
      await knex.raw('CREATE TRIGGER pilots_roster_changed AFTER UPDATE OR DELETE ON pilots FOR EACH ROW EXECUTE FUNCTION notify_roster_pilot_changed()');
      await knex.raw('CREATE TRIGGER trips_rosters_truncated AFTER TRUNCATE ON trips FOR EACH STATEMENT EXECUTE FUNCTION notify_rosters_truncated()');
      await knex.raw('CREATE TRIGGER pilots_rosters_truncated AFTER TRUNCATE ON pilots FOR EACH STATEMENT EXECUTE FUNCTION notify_rosters_truncated()');
    },
  },
};

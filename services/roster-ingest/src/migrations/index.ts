import type { Migration } from '@crewswap/kit';
import type { Knex } from 'knex';

export const migrations: Record<string, Migration> = {
  '0001_pilots': {
    async up(knex: Knex) {
      // roster-ingest's own copy of auth's pilots: enough to map a sender to a pilot and name them.
      await knex.schema.createTable('pilots', (table) => {
        table.uuid('id').primary();
        table.string('email', 200).notNullable();
        table.string('employee_id', 20).notNullable();
        table.string('first_name', 100).notNullable();
        table.string('last_name', 100).notNullable();
        table.string('base', 3).notNullable();
        table.boolean('deleted').notNullable().defaultTo(false);
        table.timestamp('occurred_at', { useTz: true }).notNullable();
      });
      await knex.raw('CREATE INDEX pilots_email ON pilots (lower(email)) WHERE NOT deleted');
    },
  },
  '0002_history_and_mail': {
    async up(knex: Knex) {
      await knex.schema.createTable('roster_history', (table) => {
        table.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
        table.uuid('pilot_id');
        table.string('pilot_name', 200);
        table.string('employee_id', 20);
        table.string('validation_stage', 40).notNullable();
        table.boolean('success').notNullable();
        table.string('source_type', 20).notNullable();
        table.string('file_name', 300);
        table.string('file_format_received', 100);
        table.integer('attachment_count').notNullable().defaultTo(0);
        table.bigInteger('file_size_bytes').notNullable().defaultTo(0);
        table.string('sender_email', 300);
        table.integer('total_events').notNullable().defaultTo(0);
        table.integer('trips_added').notNullable().defaultTo(0);
        table.integer('skipped_events').notNullable().defaultTo(0);
        table.integer('duplicate_events').notNullable().defaultTo(0);
        table.integer('conflict_events').notNullable().defaultTo(0);
        table.integer('duration_ms').notNullable().defaultTo(0);
        table.timestamp('processing_start_time', { useTz: true }).notNullable();
        table.timestamp('processing_end_time', { useTz: true });
        table.string('ip_address', 64);
        table.string('user_agent', 500);
        table.boolean('confirmation_email_sent').notNullable().defaultTo(false);
        table.string('error_type', 40);
        table.text('error_message');
        table.uuid('mail_id').unique();
        table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      });
      await knex.raw('CREATE INDEX roster_history_created ON roster_history (created_at DESC)');
      // The raw message as received; only its id goes on the ROSTER_MAIL stream.
      await knex.schema.createTable('inbound_mail', (table) => {
        table.uuid('id').primary();
        table.string('mail_from', 300);
        table.specificType('rcpt_to', 'text[]').notNullable();
        table.string('remote_address', 64);
        table.integer('size_bytes').notNullable();
        table.binary('raw').notNullable();
        table.timestamp('received_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        table.timestamp('processed_at', { useTz: true });
      });
    },
  },
  '0003_mail_auth_and_upload_addresses': {
    async up(knex: Knex) {
      await knex.schema.alterTable('inbound_mail', (table) => {
        table.string('helo', 300);
      });
      // Each pilot's private upload address: roster+<token>@<upload domain>. Only the current token is kept.
      await knex.schema.createTable('upload_addresses', (table) => {
        table.uuid('pilot_id').primary();
        table.string('token', 40).notNullable().unique();
        table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      });
    },
  },
  '0004_emergency_hold': {
    async up(knex: Knex) {
      // admin's emergency state as its events last said (one row), and the mails held because of it.
      await knex.schema.createTable('system_state', (table) => {
        table.integer('id').primary();
        table.boolean('shutdown').notNullable().defaultTo(false);
        table.timestamp('occurred_at', { useTz: true });
      });
      await knex('system_state').insert({ id: 1, shutdown: false });
      await knex.schema.alterTable('inbound_mail', (table) => {
        table.timestamp('held_at', { useTz: true });
      });
    },
  },
  '0005_roster_changes': {
    async up(knex: Knex) {
      // What each import changed among the pilot's trips from earlier rosters (issue 38).
      await knex.schema.alterTable('roster_history', (table) => {
        table.integer('trips_changed').notNullable().defaultTo(0);
        table.integer('trips_removed').notNullable().defaultTo(0);
        table.jsonb('changes');
      });
    },
  },
  '0006_mail_authenticated_from': {
    async up(knex: Knex) {
      // The From address the SMTP receiver proved (DKIM or SPF) before it answered DATA (issue 51), so the worker decides nothing twice.
      await knex.schema.alterTable('inbound_mail', (table) => {
        table.string('authenticated_from', 300);
      });
    },
  },
  '0007_roster_subscriptions': {
    async up(knex: Knex) {
      // Each pilot's roster address (issue 56), fetched on its own. A replica claims a due row until
      // claimed_until, so a replica that dies mid-fetch leaves it due again once the claim runs out.
      await knex.schema.createTable('roster_subscriptions', (table) => {
        table.uuid('pilot_id').primary();
        table.text('url').notNullable();
        table.text('etag');
        table.text('last_modified');
        table.timestamp('last_fetched_at', { useTz: true });
        table.string('last_status', 20).notNullable();
        table.text('last_error');
        table.integer('failures').notNullable().defaultTo(0);
        table.timestamp('next_fetch_at', { useTz: true });
        table.timestamp('claimed_until', { useTz: true });
        table.timestamp('refreshed_at', { useTz: true });
        table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      });
      // next_fetch_at is null while paused.
      await knex.raw('CREATE INDEX roster_subscriptions_due ON roster_subscriptions (next_fetch_at) WHERE next_fetch_at IS NOT NULL');
    },
  },
};

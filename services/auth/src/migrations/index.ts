import type { Db, Migration } from '@crewswap/kit';

export const migrations: Record<string, Migration> = {
  '0001_pilots': {
    async up(knex: Db) {
      await knex.schema.createTable('pilots', (t) => {
        t.uuid('id').primary();
        t.string('employee_id', 6).notNullable().unique();
        t.string('first_name', 100).notNullable();
        t.string('last_name', 100).notNullable();
        // Always stored lower case, so the unique index is case-insensitive in effect.
        t.string('email', 200).notNullable().unique();
        t.string('phone', 30).notNullable();
        t.string('rank', 2).notNullable();
        t.string('fleet', 4).notNullable();
        t.string('base', 3).notNullable();
        t.boolean('apic').notNullable();
        t.boolean('ltc').notNullable();
        t.boolean('usual_req').notNullable();
        t.boolean('all_visible').notNullable().defaultTo(true);
        t.boolean('test_data').notNullable();
        t.boolean('email_verified').notNullable();
        t.integer('search_day_range');
        t.date('rank_last_changed');
        t.date('fleet_last_changed');
        t.date('ltc_last_changed');
        t.date('usual_req_off');
        t.text('password_hash').notNullable();
        t.boolean('force_password_change').notNullable().defaultTo(false);
        t.timestamp('password_reset_at', { useTz: true });
        // Bumped on every change and sent as the event version, so consumers can drop stale events.
        t.integer('version').notNullable().defaultTo(1);
        t.timestamp('created_at', { useTz: true }).notNullable();
        t.timestamp('updated_at', { useTz: true }).notNullable();
      });
      await knex.schema.createTable('sessions', (t) => {
        t.uuid('id').primary();
        t.uuid('pilot_id').notNullable().references('id').inTable('pilots').onDelete('CASCADE');
        t.timestamp('login_at', { useTz: true }).notNullable();
        t.timestamp('last_activity_at', { useTz: true }).notNullable();
        t.timestamp('logout_at', { useTz: true });
        t.string('end_reason', 30);
        t.index(['login_at']);
      });
      await knex.raw('CREATE INDEX sessions_open ON sessions (pilot_id) WHERE logout_at IS NULL');
      // Keyed by the email tried, registered or not, so a stranger's address answers like a pilot's.
      await knex.schema.createTable('login_attempts', (t) => {
        t.string('email', 200).primary();
        t.integer('failed_count').notNullable().defaultTo(0);
        t.timestamp('last_failed_at', { useTz: true });
        t.timestamp('last_reset_at', { useTz: true });
        t.timestamp('locked_until', { useTz: true });
      });
      await knex.schema.createTable('verification_codes', (t) => {
        t.uuid('pilot_id').primary().references('id').inTable('pilots').onDelete('CASCADE');
        t.string('code_hash', 64).notNullable();
        t.timestamp('sent_at', { useTz: true }).notNullable();
        t.timestamp('expires_at', { useTz: true }).notNullable();
      });
      await knex.schema.createTable('verification_failures', (t) => {
        t.bigIncrements('id');
        t.string('email', 200).notNullable();
        t.timestamp('at', { useTz: true }).notNullable();
        t.index(['email', 'at']);
      });
      await knex.schema.createTable('deleted_pilots', (t) => {
        t.uuid('id').primary();
        t.string('employee_id', 6).notNullable().index();
        t.string('first_name', 100).notNullable();
        t.string('last_name', 100).notNullable();
        t.string('email', 200).notNullable();
        t.string('rank', 2).notNullable();
        t.string('fleet', 4).notNullable();
        // The whole profile (change locks included, no credentials), for a restore.
        t.jsonb('profile').notNullable();
        t.timestamp('deleted_at', { useTz: true }).notNullable();
        t.date('deleted_on').notNullable();
      });
      await knex.schema.createTable('system_state', (t) => {
        t.integer('id').primary();
        t.boolean('shutdown').notNullable().defaultTo(false);
        t.text('reason');
        t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      });
      await knex('system_state').insert({ id: 1, shutdown: false });
    },
  },
};

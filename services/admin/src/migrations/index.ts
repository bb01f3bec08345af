import type { Migration } from '@crewswap/kit';

export const migrations: Record<string, Migration> = {
  '0001_admins_sessions_settings': {
    async up(knex) {
      await knex.schema.createTable('admins', (table) => {
        table.uuid('id').primary();
        table.string('email', 200).notNullable().unique();
        table.string('name', 200).notNullable();
        table.string('phone', 30);
        table.string('job_title', 200);
        table.boolean('is_master_admin').notNullable().defaultTo(false);
        table.specificType('permissions', 'text[]').notNullable().defaultTo('{}');
        // Null until a password is set: such an admin cannot log in.
        table.text('password_hash');
        table.timestamp('last_login_at', { useTz: true });
        table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      });
      await knex.schema.createTable('admin_sessions', (table) => {
        table.uuid('id').primary();
        table.uuid('admin_id').notNullable().references('id').inTable('admins').onDelete('CASCADE');
        table.timestamp('created_at', { useTz: true }).notNullable();
        table.timestamp('ended_at', { useTz: true });
        table.string('end_reason', 50);
        table.string('ip_address', 100);
        table.string('user_agent', 500);
        table.index(['admin_id']);
      });
      await knex.schema.createTable('settings', (table) => {
        table.string('key', 100).primary();
        table.text('value').notNullable();
        table.timestamp('updated_at', { useTz: true }).notNullable();
      });
    },
  },
  '0002_system_state': {
    async up(knex) {
      // One row: whether pilots are locked out by an emergency shutdown (auth holds its own copy).
      await knex.schema.createTable('system_state', (table) => {
        table.integer('id').primary();
        table.boolean('is_shutdown').notNullable().defaultTo(false);
        table.string('reason', 500);
        table.uuid('changed_by');
        table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      });
      await knex('system_state').insert({ id: 1, is_shutdown: false });
    },
  },
  '0003_cleanup': {
    async up(knex) {
      await knex.schema.createTable('cleanup_config', (table) => {
        table.integer('id').primary();
        table.string('frequency', 10).notNullable().defaultTo('daily');
        table.integer('retention_days').notNullable().defaultTo(7);
        table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      });
      await knex('cleanup_config').insert({ id: 1 });
      await knex.schema.createTable('cleanup_runs', (table) => {
        table.uuid('id').primary();
        table.timestamp('run_date', { useTz: true }).notNullable();
        table.string('run_type', 30).notNullable();
        table.string('status', 10).notNullable();
        table.integer('retention_days').notNullable();
        table.integer('trips_deleted').notNullable().defaultTo(0);
        table.integer('notifications_deleted').notNullable().defaultTo(0);
        table.integer('execution_time_ms').notNullable();
        table.date('cutoff_date').notNullable();
        table.string('error_message', 500);
        table.index(['run_date']);
      });
    },
  },
  '0004_cleanup_claims': {
    async up(knex) {
      // One row per scheduled slot: the replica that inserts it runs that slot, the others skip it.
      await knex.schema.createTable('cleanup_schedule_claims', (table) => {
        table.timestamp('slot', { useTz: true }).primary();
        table.timestamp('claimed_at', { useTz: true }).notNullable();
      });
    },
  },  '0005_idle_sessions_and_activity': {
    async up(knex) {
      // Admin sessions end after session_timeout_minutes without use, like pilots'.
      await knex.schema.alterTable('admin_sessions', (table) => {
        table.timestamp('last_activity_at', { useTz: true });
      });
      await knex('admin_sessions').update({ last_activity_at: knex.ref('created_at') });
      await knex.raw('ALTER TABLE admin_sessions ALTER COLUMN last_activity_at SET NOT NULL');
      await knex.raw('CREATE INDEX admin_sessions_open ON admin_sessions (last_activity_at) WHERE ended_at IS NULL');
      // Who did what, when: logins and changes. Name and email are copied so a deleted admin's entries still say who.
      await knex.schema.createTable('admin_activity', (table) => {
        table.uuid('id').primary();
        table.uuid('admin_id');
        table.string('admin_email', 320);
        table.string('admin_name', 200);
        table.string('action', 200).notNullable();
        table.string('detail', 500);
        table.string('ip_address', 100);
        table.timestamp('at', { useTz: true }).notNullable().index();
      });
    },
  },
};

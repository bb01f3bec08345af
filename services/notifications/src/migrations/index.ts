import type { Migration } from '@crewswap/kit';

export const migrations: Record<string, Migration> = {
  '0001_mail_log': {
    async up(knex) {
      // One row per attempt: a retried send shows its failures before the success.
      await knex.schema.createTable('mail_log', (table) => {
        table.uuid('id').primary();
        table.uuid('event_id').notNullable().index();
        table.string('to', 320).notNullable();
        table.string('subject', 1000).notNullable();
        table.string('transport', 10).notNullable();
        table.string('status', 10).notNullable();
        table.text('detail');
        table.timestamp('sent_at', { useTz: true }).notNullable();
      });
    },
  },
  '0002_notification_log': {
    async up(knex) {
      // What was sent to a pilot (push, and in-app messages later): the push sender writes one row
      // per notification; cleanup deletes rows older than its retention (notifications.rpc.purge).
      await knex.schema.createTable('notification_log', (table) => {
        table.uuid('id').primary();
        table.uuid('pilot_id').notNullable().index();
        table.string('kind', 50).notNullable();
        table.string('title', 500).notNullable();
        table.text('body').notNullable();
        table.timestamp('sent_at', { useTz: true }).notNullable().index();
        table.string('status', 20).notNullable();
      });
    },
  },
};

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
};

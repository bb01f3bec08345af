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
  '0002_push': {
    async up(knex) {
      await knex.schema.createTable('push_subscriptions', (table) => {
        table.uuid('id').primary();
        table.uuid('pilot_id').notNullable().index();
        // A browser's endpoint is unique to it: subscribing again (or as another pilot) moves it.
        table.text('endpoint').notNullable().unique();
        table.string('p256dh', 200).notNullable();
        table.string('auth', 100).notNullable();
        table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      });
      await knex.schema.createTable('notification_preferences', (table) => {
        table.uuid('pilot_id').primary();
        table.boolean('enabled').notNullable();
        table.boolean('swap_notifications').notNullable();
        table.boolean('whatsapp_group_alerts').notNullable();
        table.integer('version').notNullable();
        table.timestamp('updated_at', { useTz: true }).notNullable();
      });
      // One row per push command: what happened to it. A dedupe key seen before is not sent again.
      await knex.schema.createTable('notification_log', (table) => {
        table.uuid('id').primary();
        table.uuid('command_id').notNullable();
        table.uuid('pilot_id').notNullable();
        table.string('kind', 30).notNullable();
        table.string('dedupe_key', 300).notNullable();
        table.string('title', 300).notNullable();
        table.text('body').notNullable();
        table.string('url', 500).notNullable();
        /** sending, sent, failed, skipped (preferences), no_subscription, expired. */
        table.string('status', 20).notNullable();
        table.integer('attempts').notNullable().defaultTo(0);
        /** Subscriptions already given this push, so a retry sends only to the others. */
        table.jsonb('delivered').notNullable().defaultTo('[]');
        table.text('detail');
        table.timestamp('created_at', { useTz: true }).notNullable();
        table.timestamp('updated_at', { useTz: true }).notNullable();
        table.unique(['pilot_id', 'dedupe_key']);
        table.index(['created_at']);
      });
    },
  },
  '0003_swap_proposals_preference': {
    async up(knex) {
      // 'Swap proposals' (issue 37): on unless the pilot turns it off.
      await knex.schema.alterTable('notification_preferences', (table) => {
        table.boolean('swap_proposals').notNullable().defaultTo(true);
      });
    },
  },
  '0004_alerts': {
    async up(knex) {
      // Issue 39: urgent offers through quiet hours, quiet hours, the daily digest.
      await knex.schema.alterTable('notification_preferences', (table) => {
        table.boolean('urgent').notNullable().defaultTo(true);
        table.jsonb('quiet_hours');
        table.jsonb('digest');
      });
      // The bell is the log of pushes with a reason; read on one device is read on all.
      await knex.schema.alterTable('notification_log', (table) => {
        table.string('reason', 20);
        table.timestamp('read_at', { useTz: true });
      });
      await knex.raw('CREATE INDEX notification_log_bell ON notification_log (pilot_id, created_at DESC) WHERE reason IS NOT NULL');
      // Pushes held in quiet hours: released, folded into one, when the pilot's quiet hours end.
      await knex.schema.createTable('held_pushes', (table) => {
        table.uuid('log_id').primary();
        table.uuid('pilot_id').notNullable().index();
        table.timestamp('held_at', { useTz: true }).notNullable();
      });
    },
  },
};

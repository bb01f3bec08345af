import type { Migration } from '@crewswap/kit';
import type { Knex } from 'knex';

export const migrations: Record<string, Migration> = {
  '0001_pilot_directory': {
    async up(knex: Knex) {
      // A projection of auth's pilots: only the names shown as a link's last editor.
      await knex.schema.createTable('pilots', (table) => {
        table.uuid('id').primary();
        table.string('first_name', 100).notNullable();
        table.string('last_name', 100).notNullable();
        /** When the applied profile event happened: older events never overwrite newer ones. */
        table.timestamp('occurred_at', { useTz: true }).notNullable();
        /** Kept as a tombstone so a late profile event cannot bring a deleted pilot's name back. */
        table.boolean('deleted').notNullable().defaultTo(false);
      });
    },
  },
  '0002_crew_links': {
    async up(knex: Knex) {
      await knex.schema.createTable('crew_links', (table) => {
        table.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
        table.string('title', 200).notNullable();
        table.string('category', 30).notNullable();
        table.text('description').notNullable();
        table.text('discount_details');
        /** As shown: 'ALL' or 'JFK, LAX'. */
        table.string('destinations', 500).notNullable();
        /** The same as an array for the destination filter; ['ALL'] for every destination. */
        table.specificType('destination_codes', 'text[]').notNullable();
        table.text('website');
        table.string('location_name', 200);
        table.string('location_coordinates', 300);
        table.string('contact_info', 500);
        table.boolean('is_active').notNullable().defaultTo(true);
        table.uuid('created_by').notNullable();
        table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        table.uuid('last_edited_by').notNullable();
        table.timestamp('last_edited_at', { useTz: true }).notNullable();
      });
      await knex.raw('CREATE INDEX crew_links_destination_codes ON crew_links USING gin (destination_codes)');
      // The primary key is what makes "one like per pilot per link" hold under concurrent clicks.
      await knex.schema.createTable('crew_link_likes', (table) => {
        table.uuid('link_id').notNullable().references('id').inTable('crew_links').onDelete('CASCADE');
        table.uuid('pilot_id').notNullable();
        table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
        table.primary(['link_id', 'pilot_id']);
      });
    },
  },
};

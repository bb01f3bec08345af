import { createDb, migrate, type Db, type Migration } from '../src/data/db';
import { createTestDatabase } from '@crewswap/kit-testing';

const MIGRATIONS: Record<string, Migration> = {
  '0001_notes': { up: (knex, schema) => knex.schema.withSchema(schema).createTable('notes', (table) => table.increments('id')) },
  '0002_notes_text': { up: (knex, schema) => knex.schema.withSchema(schema).alterTable('notes', (table) => table.text('text')) },
};

describe('migrations when replicas start together', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const handles: Db[] = [];
  const open = () => {
    const db = createDb(database.url, 'notes_service');
    handles.push(db);
    return db;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    await Promise.all(handles.splice(0).map((db) => db.destroy()));
    const db = open();
    await db.raw('DROP SCHEMA IF EXISTS notes_service CASCADE');
  });
  afterAll(async () => {
    await Promise.all(handles.map((db) => db.destroy()));
    await database.drop();
  });

  it('eight processes migrating a new schema at once each succeed, and each migration runs once', async () => {
    await Promise.all(Array.from({ length: 8 }, () => migrate(open(), 'notes_service', MIGRATIONS)));
    const db = open();
    const applied: { name: string }[] = await db.withSchema('notes_service').from('knex_migrations').select('name').orderBy('id');
    expect(applied.map((row) => row.name)).toEqual(['0001_notes', '0002_notes_text']);
    expect(await db.withSchema('notes_service').from('knex_migrations_lock').select('is_locked')).toEqual([{ is_locked: 0 }]);
  });

  it('a schema left with two lock rows, or a lock a killed migrator held, migrates again instead of failing for good', async () => {
    const db = open();
    await migrate(db, 'notes_service', { '0001_notes': MIGRATIONS['0001_notes']! });
    // What knex's look-then-insert left when two processes made the lock row at once, locked.
    await db.withSchema('notes_service').from('knex_migrations_lock').insert({ is_locked: 1 });
    await db.withSchema('notes_service').from('knex_migrations_lock').update({ is_locked: 1 });

    await migrate(open(), 'notes_service', MIGRATIONS);

    expect(await db.schema.withSchema('notes_service').hasColumn('notes', 'text')).toBe(true);
    expect(await db.withSchema('notes_service').from('knex_migrations_lock').select('is_locked')).toEqual([{ is_locked: 0 }]);
  });
});

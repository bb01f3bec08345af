import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import type { Logger } from 'pino';

// Postgres DATE columns stay 'YYYY-MM-DD' strings: turning them into JS Dates at local midnight
// shifts them a day in any zone west of UTC.
pg.types.setTypeParser(pg.types.builtins.DATE, (value: string) => value);
// COUNT(*) and BIGINT come back as strings by default; our counts fit comfortably in a number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));

export type Db = Knex;
export type Trx = Knex.Transaction;
export type Executor = Knex | Knex.Transaction;

export interface Migration {
  up(knex: Knex, schema: string): Promise<void>;
  down?(knex: Knex, schema: string): Promise<void>;
}

/**
 * A service's database handle: every unqualified table lives in the service's own schema. knex's
 * own complaints (a connection lost, refused) go to the service's log, marked as the database's.
 */
export function createDb(url: string, schema: string, pool = { min: 0, max: 10 }, logger?: Logger): Db {
  const log = logger?.child({ dependency: 'database' });
  return knexFactory({
    client: 'pg',
    // No JIT compilation: every query a service makes is short, and Postgres judges by cost
    // estimates whether to compile one. Swaps' offer-row refresh, estimated high for its subquery
    // per row, spent 30-160 ms compiling 28 functions for a statement of a few rows (make load:
    // a third of Postgres's CPU).
    connection: { connectionString: url, options: '-c jit=off' },
    searchPath: [schema, 'public'],
    pool,
    ...(log
      ? {
          log: {
            warn: (message: unknown) => log.warn(String(message)),
            error: (message: unknown) => log.error(String(message)),
            deprecate: (message: unknown) => log.warn(String(message)),
            debug: (message: unknown) => log.debug(String(message)),
          },
        }
      : {}),
    // knex waits 60 s for a connection by default; while Postgres is unreachable a request
    // should hear 503 well before its caller gives up.
    acquireConnectionTimeout: 10_000,
  });
}

/**
 * Creates the schema and runs the service's migrations, given in order by name. A migration
 * list in code (rather than a folder) runs the same under tsx, jest and a bundle.
 *
 * Replicas (and a service with its worker) start together, so migrators of one schema take turns
 * on a Postgres advisory lock. knex's own lock is a row it makes by looking then inserting: two
 * processes starting at once on a new schema could each insert one, and from then on every start
 * failed with 'Migration table is already locked'. Holding the advisory lock, a migrator is the
 * only one, so it also mends what knex may have left: extra lock rows, or a lock a killed
 * migrator never freed. Needs two connections: the lock's and the migration's.
 */
export async function migrate(db: Db, schema: string, migrations: Record<string, Migration>): Promise<void> {
  await db.transaction(async (turn) => {
    await turn.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [`crewswap migrate ${schema}`]);
    await migrateAlone(db, schema, migrations);
  });
}

async function migrateAlone(db: Db, schema: string, migrations: Record<string, Migration>): Promise<void> {
  await db.raw('CREATE SCHEMA IF NOT EXISTS ??', [schema]);
  if (await db.schema.withSchema(schema).hasTable(MIGRATION_LOCK_TABLE)) {
    const lock = () => db.withSchema(schema).from(MIGRATION_LOCK_TABLE);
    await lock().where('index', '>', lock().min('index')).delete();
    await lock().update({ is_locked: 0 });
  }
  const names = Object.keys(migrations).sort();
  await db.migrate.latest({
    schemaName: schema,
    tableName: 'knex_migrations',
    migrationSource: {
      getMigrations: async () => names,
      getMigrationName: (name: string) => name,
      getMigration: async (name: string) => {
        const migration = migrations[name]!;
        return {
          up: (knex: Knex) => migration.up(knex, schema),
          down: (knex: Knex) => (migration.down ? migration.down(knex, schema) : Promise.resolve()),
        };
      },
    },
  });
}

/**
 * A process that works in a schema another service owns and migrates (push-sender in
 * notifications'): it migrates nothing, so two folders never hold migrations of one schema, and
 * starts once the owner's migrations have made what it uses.
 */
export interface OwnedElsewhere {
  ownedBy: string;
  /** The owner's tables this process reads and writes. */
  tables: readonly string[];
  /** How long to wait for them (the owner may be starting beside it) before refusing to start. */
  waitMs: number;
}

export const isOwnedElsewhere = (migrations: Record<string, Migration> | OwnedElsewhere): migrations is OwnedElsewhere => typeof migrations.ownedBy === 'string';

/** Waits until `schema` has the tables and the named migrations (the kit's) that `need` asks for. */
export async function waitForSchema(db: Db, schema: string, need: OwnedElsewhere & { migrations: readonly string[] }, log?: Logger): Promise<void> {
  const deadline = Date.now() + need.waitMs;
  let told = false;
  for (;;) {
    const missing = await missingFromSchema(db, schema, need);
    if (missing.length === 0) return;
    if (Date.now() >= deadline) {
      throw new Error(`The ${schema} schema has no ${missing.join(', ')}: ${need.ownedBy} migrates it (its migrate Job, or its start). Start ${need.ownedBy} first, or read its log.`);
    }
    if (!told) log?.info({ schema, missing }, `waiting for ${need.ownedBy} to migrate the ${schema} schema`);
    told = true;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function missingFromSchema(db: Db, schema: string, need: { tables: readonly string[]; migrations: readonly string[] }): Promise<string[]> {
  const wanted = ['knex_migrations', ...need.tables];
  const present: string[] = await db('information_schema.tables').where({ table_schema: schema }).whereIn('table_name', wanted).pluck('table_name');
  const missing = wanted.filter((table) => !present.includes(table)).map((table) => `table ${table}`);
  if (!present.includes('knex_migrations')) return missing;
  const applied: string[] = await db.withSchema(schema).from('knex_migrations').pluck('name');
  return [...missing, ...need.migrations.filter((name) => !applied.includes(name)).map((name) => `migration ${name}`)];
}

export async function isDatabaseReachable(db: Db): Promise<boolean> {
  // A probe must answer promptly even when Postgres does not (a partition rather than a refusal).
  const timeout = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 2000).unref());
  return Promise.race([db.raw('select 1').then(() => true, () => false), timeout]);
}

/** Runs `fn` once the transaction has committed (at once outside a transaction); never on rollback. */
export function afterCommit(trx: Executor, fn: () => void): void {
  const execution = (trx as { executionPromise?: Promise<unknown> }).executionPromise;
  if (execution) execution.then(fn, () => undefined);
  else fn();
}

/** knex's lock table, named after its migrations table (`knex_migrations`). */
const MIGRATION_LOCK_TABLE = 'knex_migrations_lock';

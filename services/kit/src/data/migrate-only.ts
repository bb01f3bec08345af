import { baseConfigSchema, ConfigError, loadConfig, type BaseConfig } from '../config';
import { createDb, migrate, type Migration } from './db';
import { createLogger } from '../observability/logger';
import { kitMigrations } from '../events/outbox';

export interface MigrationOptions {
  name: string;
  /** The Postgres schema the service owns. */
  schema: string;
  migrations: Record<string, Migration>;
}

/**
 * Runs a service's migrations (the kit's outbox tables included) and nothing else: no NATS, no
 * HTTP. Services still migrate on start, which then finds nothing to do; running this first, once
 * (the Helm chart's pre-install/pre-upgrade Job), keeps replicas that start together from racing
 * to create the same schema on an empty database.
 */
export async function runMigrations(options: MigrationOptions, config: Pick<BaseConfig, 'DATABASE_URL' | 'LOG_LEVEL' | 'LOG_FORMAT'>): Promise<string[]> {
  const log = createLogger(`${options.name}-migrate`, config);
  // Two connections: migrating holds a lock on one (see `migrate`).
  const db = createDb(config.DATABASE_URL, options.schema, { min: 0, max: 2 });
  try {
    await migrate(db, options.schema, { ...kitMigrations, ...options.migrations });
    const applied: { name: string }[] = await db.withSchema(options.schema).select('name').from('knex_migrations').orderBy('id');
    log.info({ schema: options.schema, migrations: applied.length }, 'migrations are up to date');
    return applied.map((row) => row.name);
  } finally {
    await db.destroy();
  }
}

/** All that migrating reads from the environment (production still insists on DATABASE_URL). */
export const migrationConfigSchema = baseConfigSchema.pick({ DATABASE_URL: true, LOG_LEVEL: true, LOG_FORMAT: true });

/**
 * The body of every service's `src/migrate.ts` (the image's migrate-only entry): migrates, exits
 * 0, or prints why and exits 1.
 */
export async function runMigrationsMain(options: MigrationOptions): Promise<void> {
  try {
    await runMigrations(options, loadConfig(migrationConfigSchema));
    process.exit(0);
  } catch (error) {
    process.stderr.write(error instanceof ConfigError ? `${error.message}\n` : `Migration failed: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  }
}

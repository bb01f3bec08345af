/** Migrate-only entry (the Helm chart's pre-install/pre-upgrade Job): `node dist/migrate.mjs`. */
import { runMigrationsMain } from '@crewswap/kit';
import { migrations } from './migrations';

await runMigrationsMain({ name: 'links', schema: 'links', migrations });

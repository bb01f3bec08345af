import { baseConfigSchema, repoPath, requiredInProduction } from '@crewswap/kit';
import { z } from 'zod';

const upstream = (port: number) => requiredInProduction(z.url().default(`http://127.0.0.1:${port}`));

export const configSchema = baseConfigSchema
  .pick({ HOST: true, LOG_LEVEL: true, LOG_FORMAT: true })
  .extend({
    PORT: z.coerce.number().int().min(1).max(65535).default(8080),
    /** Prometheus metrics, apart from the public port (0 picks a free one). */
    METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(8089),
    /** The app's own origin: the only one allowed to send mutating requests... */
    APP_ORIGIN: requiredInProduction(z.url().default('http://localhost:8080')),
    /** ...besides these (comma separated), e.g. the same server by IP address. */
    EXTRA_ORIGINS: z.string().default(''),
    AUTH_URL: upstream(8081),
    TRIPS_URL: upstream(8082),
    SWAPS_URL: upstream(8083),
    ADMIN_URL: upstream(8084),
    NOTIFICATIONS_URL: upstream(8085),
    ROSTER_INGEST_URL: upstream(8086),
    REALTIME_URL: upstream(8087),
    LINKS_URL: upstream(8088),
    /** The built web app; when missing, `/` says how to build it. */
    WEB_DIST: z.string().default(repoPath('web', 'dist')),
    /**
     * Auth requests per client address per minute. Whole crew rooms share one address, so this is
     * generous; the per-account lockout in auth does the real protecting.
     */
    AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(300),
  });
export type Config = z.infer<typeof configSchema>;


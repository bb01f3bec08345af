import { baseConfigSchema, repoPath, requiredInProduction } from '@crewswap/kit';
import { z } from 'zod';
import { splitUrls } from './replicas';

/**
 * A service's address, or its replicas' separated by commas (`make up REPLICAS=2`): requests take
 * them in turn. On a cluster it is the one address of the service's Kubernetes Service.
 */
const upstream = (port: number) =>
  requiredInProduction(z.string().default(`http://127.0.0.1:${port}`).transform(splitUrls).pipe(z.array(z.url()).min(1, 'give at least one address')));

/** A proxy the gateway believes: an address, a CIDR range, or one of proxy-addr's names for ranges. */
const proxyAddress = z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6(), z.enum(['loopback', 'linklocal', 'uniquelocal'])]);

/**
 * Who may tell the gateway a client's address in `X-Forwarded-For`: nobody (`false`), the
 * proxies at these addresses or ranges (`10.0.0.0/8,fd00::/8`), or the nearest N hops (`1`), which
 * trusts whoever connects, so only for a gateway that nothing but the ingress can reach.
 */
const trustProxy = z
  .string()
  .trim()
  .default('false')
  .transform((value, context): false | number | string[] => {
    if (value === '' || value === 'false' || value === '0') return false;
    if (/^\d+$/.test(value)) return Number(value);
    const list = value.split(',').map((item) => item.trim()).filter(Boolean);
    const wrong = list.filter((item) => !proxyAddress.safeParse(item).success);
    if (wrong.length === 0) return list;
    context.addIssue({ code: 'custom', message: `${wrong.join(', ')}: give false, a hop count, or proxy addresses and CIDR ranges separated by commas` });
    return z.NEVER;
  });

export const configSchema = baseConfigSchema
  .pick({ HOST: true, LOG_LEVEL: true, LOG_FORMAT: true, OTEL_EXPORTER_OTLP_ENDPOINT: true, OTEL_SERVICE_NAME: true })
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
    /**
     * Reads of one calendar feed (one private address) per minute, from anywhere. Calendar apps
     * look every 15 minutes or more; a pilot's phone, laptop and a calendar server together stay
     * far below this.
     */
    CALENDAR_FEED_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
    /**
     * Behind an ingress every request comes from the ingress's address, so all pilots would share
     * one rate-limit bucket: trusting the ingress's `X-Forwarded-For` gives each client its own.
     */
    TRUST_PROXY: trustProxy,
  });
export type Config = z.infer<typeof configSchema>;


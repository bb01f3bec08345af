import { baseConfigSchema } from '@crewswap/kit';
import { z } from 'zod';

const flag = (fallback: 'true' | 'false') =>
  z
    .enum(['true', 'false'])
    .default(fallback)
    .transform((value) => value === 'true');

export const configSchema = baseConfigSchema.extend({
  PORT: z.coerce.number().int().default(8086),
  PRODUCT_NAME: z.string().min(1).default('CrewSwap'),
  /** The SMTP receiver for emailed rosters; 0 picks a free port (tests). */
  SMTP_INGEST_PORT: z.coerce.number().int().min(0).max(65535).default(2525),
  SMTP_INGEST_HOST: z.string().default('0.0.0.0'),
  SMTP_INGEST_ENABLED: flag('true'),
  /** The worker that parses and imports stored mail; replicas share its durable consumer. */
  MAIL_WORKER_ENABLED: flag('true'),
  /**
   * Mails one worker imports at once. Each holds a database connection while trips imports (of a
   * pool of 10), so a burst is worked through in parallel without starving the upload route.
   */
  MAIL_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(8).default(4),
  /** A mail the worker took but did not finish (a crash) is handed out again after this long. */
  MAIL_ACK_WAIT_MS: z.coerce.number().int().min(500).default(60_000),
  /** The upload address when the `upload_email` setting cannot be read. */
  ROSTER_UPLOAD_EMAIL: z.email().default('roster-upload@crewswap.local'),
  /**
   * Largest mail accepted at the SMTP level: a 10 MB calendar grows by a third in base64, plus
   * headers and a message body.
   */
  SMTP_MAX_MESSAGE_BYTES: z.coerce.number().int().min(1024).default(15 * 1024 * 1024),
  /**
   * SMTP connections at once; one more is answered 421 (try again later) and closed. A mail is held
   * in memory only while it is within SMTP_MAX_MESSAGE_BYTES, so this bounds what mail can take.
   */
  SMTP_MAX_CLIENTS: z.coerce.number().int().min(1).default(50),
  /**
   * Memory for mail still arriving, all connections together (at least SMTP_MAX_MESSAGE_BYTES).
   * When it is full the largest mail in transit is let go: 552 if it turns out over the size
   * limit, else 452 (the sender tries again later). A flood of large mail stays within it.
   */
  SMTP_BUFFER_BYTES: z.coerce.number().int().min(1024).default(16 * 1024 * 1024),
  /** Worker threads that parse calendars, so a huge file never holds up the service's event loop. */
  PARSE_WORKERS: z.coerce.number().int().min(1).max(8).default(2),
  /**
   * A calendar still being parsed after this is refused (a real roster takes milliseconds, the
   * slowest file within the limits on events under a second).
   */
  PARSE_TIMEOUT_MS: z.coerce.number().int().min(100).default(5_000),
  /**
   * STARTTLS is offered unless this says false (plain text only). Its certificate: the two files
   * below, read again when they change (a renewal needs no restart); without them, a self-signed
   * one made at start.
   */
  SMTP_STARTTLS: flag('true'),
  /** PEM files of the receiver's TLS key and certificate (both or neither). */
  SMTP_TLS_KEY_FILE: z.string().min(1).optional(),
  SMTP_TLS_CERT_FILE: z.string().min(1).optional(),
  /** Refuse MAIL FROM until the client has switched to TLS with STARTTLS. */
  SMTP_REQUIRE_TLS: flag('false'),
  /** Each pilot's roster address is fetched about this often (spread by up to a fifth more, per pilot). */
  ROSTER_FETCH_INTERVAL_MINUTES: z.coerce.number().min(1).default(60),
  /**
   * `host:port` entries (comma-separated) that roster addresses may reach although they are
   * private, loopback or plain http: a test's or a developer's local file server. Empty in production.
   */
  ROSTER_FETCH_ALLOWED_PRIVATE_HOSTS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((entry) => entry.trim().toLowerCase())
        .filter(Boolean),
    ),
  /** A roster address that has not answered in full after this is refused. */
  ROSTER_FETCH_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  /** How often a replica looks for due roster addresses. */
  ROSTER_FETCH_TICK_MS: z.coerce.number().int().min(50).default(30_000),
  /** Whether this replica fetches due roster addresses on its own. */
  ROSTER_FETCH_ENABLED: flag('true'),
})
  .refine((config) => config.SMTP_BUFFER_BYTES >= config.SMTP_MAX_MESSAGE_BYTES, {
    message: 'SMTP_BUFFER_BYTES must hold at least one mail of SMTP_MAX_MESSAGE_BYTES',
    path: ['SMTP_BUFFER_BYTES'],
  })
  .refine((config) => Boolean(config.SMTP_TLS_KEY_FILE) === Boolean(config.SMTP_TLS_CERT_FILE), {
    message: 'set both SMTP_TLS_KEY_FILE and SMTP_TLS_CERT_FILE, or neither',
    path: ['SMTP_TLS_KEY_FILE'],
  })
  .refine((config) => !config.SMTP_REQUIRE_TLS || (config.SMTP_STARTTLS && Boolean(config.SMTP_TLS_KEY_FILE)), {
    message: 'SMTP_REQUIRE_TLS needs SMTP_STARTTLS and SMTP_TLS_KEY_FILE and SMTP_TLS_CERT_FILE',
    path: ['SMTP_REQUIRE_TLS'],
  });
export type Config = z.infer<typeof configSchema>;

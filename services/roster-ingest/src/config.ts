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
  /** Worker threads that parse calendars, so a huge file never holds up the service's event loop. */
  PARSE_WORKERS: z.coerce.number().int().min(1).max(8).default(2),
  /**
   * A calendar still being parsed after this is refused (a real roster takes milliseconds, the
   * slowest file within the limits on events under a second).
   */
  PARSE_TIMEOUT_MS: z.coerce.number().int().min(100).default(5_000),
  /** PEM files of the receiver's TLS key and certificate: with both, STARTTLS is offered. */
  SMTP_TLS_KEY_FILE: z.string().min(1).optional(),
  SMTP_TLS_CERT_FILE: z.string().min(1).optional(),
  /** Refuse MAIL FROM until the client has switched to TLS with STARTTLS. */
  SMTP_REQUIRE_TLS: flag('false'),
})
  .refine((config) => Boolean(config.SMTP_TLS_KEY_FILE) === Boolean(config.SMTP_TLS_CERT_FILE), {
    message: 'set both SMTP_TLS_KEY_FILE and SMTP_TLS_CERT_FILE, or neither',
    path: ['SMTP_TLS_KEY_FILE'],
  })
  .refine((config) => !config.SMTP_REQUIRE_TLS || Boolean(config.SMTP_TLS_KEY_FILE), {
    message: 'SMTP_REQUIRE_TLS needs SMTP_TLS_KEY_FILE and SMTP_TLS_CERT_FILE',
    path: ['SMTP_REQUIRE_TLS'],
  });
export type Config = z.infer<typeof configSchema>;

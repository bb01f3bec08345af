import { resolve } from 'node:path';
import { baseConfigSchema, repoPath, requiredInProduction, vapidConfig } from '@crewswap/kit';
import { z } from 'zod';

export const configSchema = baseConfigSchema.extend({
  PORT: z.coerce.number().int().min(1).max(65535).default(8085),
  /** e.g. smtp://user:pass@mail.example.test:587; unset, mail is written as .eml files instead. */
  SMTP_URL: requiredInProduction(
    z
      .union([z.literal(''), z.url('must be a URL such as smtp://user:pass@host:587')])
      .optional()
      .transform((url) => url || undefined),
  ),
  /** The From while the admin setting outgoing_email is empty (the setting wins when set). */
  MAIL_FROM: z.string().trim().min(1).default('CrewSwap <noreply@crewswap.local>'),
  /**
   * Where .eml files go without SMTP. Relative paths are taken from the working directory; the
   * default sits at the repo root, wherever the service was started from.
   */
  MAIL_OUTBOX_DIR: z
    .string()
    .min(1)
    .optional()
    .transform((dir) => (dir ? resolve(dir) : repoPath('.local', 'mail-outbox'))),
  PRODUCT_NAME: z.string().trim().min(1).default('CrewSwap'),
  /** The app's origin, for the digest's unsubscribe link. */
  APP_ORIGIN: z.url().default('http://localhost:8080'),
  ...vapidConfig,
  /**
   * Push endpoints are addresses a browser gives us; push-sender POSTs to them. Only hosts of the
   * browsers' push services are accepted (comma-separated suffixes), so a forged subscription
   * cannot point push-sender at something inside the cluster.
   */
  PUSH_ENDPOINT_HOSTS: z
    .string()
    .default('fcm.googleapis.com,updates.push.services.mozilla.com,push.services.mozilla.com,notify.windows.com,push.apple.com')
    .transform((list) => list.split(',').map((host) => host.trim().toLowerCase()).filter(Boolean)),
  /** Also accept http endpoints on 127.0.0.1/localhost: tests and benchmarks only. */
  PUSH_ALLOW_LOCAL_ENDPOINTS: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
});
export type NotificationsConfig = z.infer<typeof configSchema>;


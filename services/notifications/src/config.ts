import { resolve } from 'node:path';
import { baseConfigSchema, repoPath, requiredInProduction } from '@crewswap/kit';
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
});
export type NotificationsConfig = z.infer<typeof configSchema>;

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { baseConfigSchema, requiredInProduction } from '@crewswap/kit';
import { z } from 'zod';

/** The monorepo's root (the package.json with workspaces) above `from`, or `from` itself. */
export function repoRoot(from = process.cwd()): string {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && 'workspaces' in (JSON.parse(readFileSync(manifest, 'utf8')) as object)) return dir;
    if (dirname(dir) === dir) return resolve(from);
  }
}

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
    .transform((dir) => (dir ? resolve(dir) : join(repoRoot(), '.local', 'mail-outbox'))),
});
export type NotificationsConfig = z.infer<typeof configSchema>;

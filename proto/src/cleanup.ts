import { z } from 'zod';

import { CLEANUP_FREQUENCIES, CLEANUP_RETENTION } from './admin-constants';

export const CleanupFrequency = z.enum(CLEANUP_FREQUENCIES);
export type CleanupFrequency = z.infer<typeof CleanupFrequency>;


/**
 * A number of days, or its digits as text (a query string carries only text). Nothing else is
 * read as a number: `true` would otherwise be taken as 1 day.
 */
const retentionDays = z.preprocess(
  (value) => (typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value),
  z
    .number({ error: 'Retention must be a number of days' })
    .int('Retention must be a whole number of days')
    .min(CLEANUP_RETENTION.min, 'Retention must be at least 1 day')
    .max(CLEANUP_RETENTION.max, 'Retention cannot exceed 30 days'),
);

/** GET /api/admin/cleanup/config; nextScheduledRun is null while stopped. */
export const CleanupConfig = z.object({ frequency: CleanupFrequency, retentionDays: z.number().int(), nextScheduledRun: z.string().nullable() });
export type CleanupConfig = z.infer<typeof CleanupConfig>;

export const CleanupConfigBody = z.strictObject({
  frequency: z.enum(CLEANUP_FREQUENCIES, 'Frequency must be stopped, daily, weekly or monthly'),
  retentionDays,
});
export type CleanupConfigBody = z.infer<typeof CleanupConfigBody>;

export const CleanupRunBody = z.strictObject({ retentionDays: retentionDays.default(CLEANUP_RETENTION.default) });
export const CleanupPreviewQuery = z.object({ days: retentionDays.default(CLEANUP_RETENTION.default) });

export const CleanupRunResponse = z.object({ tripsDeleted: z.number().int(), notificationsDeleted: z.number().int() });
export type CleanupRunResponse = z.infer<typeof CleanupRunResponse>;

/** One run in the history; status is success or failed (the console shows anything else as partial). */
export const CleanupRun = z.object({
  id: z.uuid(),
  runDate: z.string(),
  runType: z.string(),
  status: z.string(),
  retentionDays: z.number().int(),
  tripsDeleted: z.number().int(),
  notificationsDeleted: z.number().int(),
  executionTimeMs: z.number().int(),
  cutoffDate: z.string(),
  errorMessage: z.string().nullable(),
});
export type CleanupRun = z.infer<typeof CleanupRun>;

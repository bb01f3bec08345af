import { z } from 'zod';

import { AIRCRAFT, BASES, FLEETS, RANKS } from './constants';

export { AIRCRAFT, BASES, FLEETS, RANKS } from './constants';

export const Rank = z.enum(RANKS);
export const Fleet = z.enum(FLEETS);
export const Base = z.enum(BASES);
export const Aircraft = z.enum(AIRCRAFT);
export type Rank = z.infer<typeof Rank>;
export type Fleet = z.infer<typeof Fleet>;
export type Base = z.infer<typeof Base>;
export type Aircraft = z.infer<typeof Aircraft>;

/** A calendar date, `YYYY-MM-DD`, that exists (no 2026-02-30). */
export const IsoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Dates must be YYYY-MM-DD')
  .refine((value) => {
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
  }, 'Not a real calendar date');
export type IsoDate = z.infer<typeof IsoDate>;

export const Id = z.uuid();
export const IdParams = z.strictObject({ id: z.uuid('Not a valid id') });

/** Why a pilot's session ended (auth's record of it, carried on its revocation event). */
export const SessionEndReason = z.enum(['logout', 'logged_in_elsewhere', 'password_reset', 'timeout', 'deleted', 'admin_shutdown']);
export type SessionEndReason = z.infer<typeof SessionEndReason>;

/** Every error response of every service. */
export const ErrorBody = z.object({
  error: z.string(),
  /** The spec's title for the message where it names one (e.g. 'Invalid Employee ID'). */
  title: z.string().optional(),
  fields: z.record(z.string(), z.string()).optional(),
  /**
   * On a 401 for a session that was ended (not one that never was): why, where known. The app
   * turns it into the login page's banner ('System Temporarily Unavailable' for admin_shutdown),
   * whichever of its calls hears of the end first.
   */
  sessionEnded: SessionEndReason.optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** What a call answers (503) while an administrator's emergency shutdown lasts, whichever service takes it. */
export const SYSTEM_SHUTDOWN_MESSAGE = 'CrewSwap is temporarily unavailable: an administrator has paused the system. Please try again later.';
export const SYSTEM_SHUTDOWN_TITLE = 'System Temporarily Unavailable';

export const MessageResponse = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof MessageResponse>;

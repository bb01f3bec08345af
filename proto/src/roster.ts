import { z } from 'zod';
import { RosterTripChange } from './events';
import { ROSTER_FILE_TOO_LARGE, ROSTER_SOURCES, ROSTER_UNSUPPORTED_EXTENSION } from './roster-files';

export * from './roster-files';

/** A real roster has a few hundred events; a calendar past this is refused before it is read. */
export const ROSTER_MAX_EVENTS = 2000;
/** Dates added to or left out of repeating events (RDATE, EXDATE): a roster has none or a few. */
export const ROSTER_MAX_RECURRENCE_DATES = 2000;
/** A roster email carries one or two calendars; past this the mail is refused unread. */
export const ROSTER_MAX_ATTACHMENTS = 20;

export const ROSTER_ERROR_TYPES = [
  'NOT_A_CALENDAR',
  'MALFORMED_CALENDAR',
  'EMPTY_CALENDAR',
  'FILE_TOO_LARGE',
  'UNSUPPORTED_EXTENSION',
  'NO_FILE',
  'UNKNOWN_SENDER',
  'NO_CALENDAR_ATTACHMENT',
  'IMPORT_FAILED',
  'TOO_MANY_EVENTS',
  'TOO_MANY_ATTACHMENTS',
  'UNREADABLE_EMAIL',
  'UNAUTHENTICATED_SENDER',
  'CALENDAR_TOO_COMPLEX',
  'TOO_MANY_RECURRENCE_DATES',
] as const;
export const RosterErrorType = z.enum(ROSTER_ERROR_TYPES);
export type RosterErrorType = z.infer<typeof RosterErrorType>;

export const ROSTER_MESSAGES: Record<RosterErrorType, string> = {
  NOT_A_CALENDAR: 'This file is not a calendar file. Please send the .ics calendar file exported from your roster.',
  MALFORMED_CALENDAR: 'This calendar file is damaged or incomplete, so nothing was imported. Please export it again and retry.',
  EMPTY_CALENDAR: 'This calendar file has no events, so nothing was imported.',
  FILE_TOO_LARGE: ROSTER_FILE_TOO_LARGE,
  UNSUPPORTED_EXTENSION: ROSTER_UNSUPPORTED_EXTENSION,
  NO_FILE: 'Please choose a calendar file to upload.',
  UNKNOWN_SENDER: 'Rosters can only be emailed from the company email address registered in CrewSwap.',
  NO_CALENDAR_ATTACHMENT: 'No calendar file (.ics, .ics_ or .cal) was attached to this email.',
  IMPORT_FAILED: 'Upload failed',
  TOO_MANY_EVENTS: `This calendar has more than ${ROSTER_MAX_EVENTS} events, far more than a roster holds, so nothing was imported. Please send the calendar file exported from your roster.`,
  TOO_MANY_ATTACHMENTS: `This email has more than ${ROSTER_MAX_ATTACHMENTS} attachments, so nothing was imported. Please send your roster calendar file on its own.`,
  UNREADABLE_EMAIL: 'This email could not be read, so nothing was imported. Please send the roster calendar file again as an attachment.',
  CALENDAR_TOO_COMPLEX: 'This calendar file takes too long to read, so nothing was imported. Please send the calendar file exported from your roster.',
  TOO_MANY_RECURRENCE_DATES: `This calendar has more than ${ROSTER_MAX_RECURRENCE_DATES} dates added to or left out of repeating events, far more than a roster holds, so nothing was imported. Please send the calendar file exported from your roster.`,
  UNAUTHENTICATED_SENDER:
    'This email could not be verified as sent by the company mail system (no SPF or DKIM pass for its sender), so nothing was imported and no reply was sent.',
};

/** Refusals of an upload request that never reaches the import, so none is recorded in roster history. */
export const ROSTER_UPLOAD_MESSAGES = {
  unreadable: 'The upload could not be read. Please choose the calendar file again and retry.',
  badFileName: 'The file name contains characters that are not allowed. Please rename the file and retry.',
} as const;

/** GET /api/roster/upload-address (and POST, which replaces it): the pilot's own roster upload address. */
export const RosterUploadAddress = z.object({ address: z.email() });
export type RosterUploadAddress = z.infer<typeof RosterUploadAddress>;

export const RosterSource = z.enum(ROSTER_SOURCES);
export type RosterSource = z.infer<typeof RosterSource>;

/** POST /api/roster/upload answers this once trips has stored the roster. */
export const RosterUploadResult = z.object({
  processedCount: z.number().int(),
  duplicateCount: z.number().int(),
  conflictCount: z.number().int(),
  /** Each conflicting trip named, e.g. 'VS127/VS128 (12/08/2026 to 12/11/2026) overlaps VS125/VS126 ...'. */
  conflicts: z.array(z.string()),
  skippedCount: z.number().int(),
  /** Each trip not stored, named like a conflict, with the reason (e.g. 'Trip ended more than 7 days ago'). */
  skipped: z.array(z.object({ trip: z.string(), reason: z.string() })),
  message: z.string(),
  /** Against the pilot's trips from earlier rosters: new trips (as processedCount), changed and removed ones. */
  addedCount: z.number().int(),
  changedCount: z.number().int(),
  removedCount: z.number().int(),
  /** Each trip added, changed or removed, with its before and after. */
  changes: z.array(RosterTripChange),
});
export type RosterUploadResult = z.infer<typeof RosterUploadResult>;

/** One upload or email, as the admin's Roster Processing History lists it. */
export const RosterHistoryRecord = z.object({
  id: z.uuid(),
  pilotId: z.uuid().nullable(),
  pilotName: z.string().nullable(),
  employeeId: z.string().nullable(),
  validationStage: z.string(),
  success: z.boolean(),
  sourceType: RosterSource,
  fileName: z.string().nullable(),
  fileFormatReceived: z.string().nullable(),
  attachmentCount: z.number().int(),
  fileSizeBytes: z.number().int(),
  senderEmail: z.string().nullable(),
  totalEvents: z.number().int(),
  tripsAdded: z.number().int(),
  tripsChanged: z.number().int(),
  tripsRemoved: z.number().int(),
  /** Each trip the import added, changed or removed, with its before and after. */
  changes: z.array(RosterTripChange),
  skippedEvents: z.number().int(),
  duplicateEvents: z.number().int(),
  conflictEvents: z.number().int(),
  durationMs: z.number().int(),
  processingStartTime: z.string(),
  processingEndTime: z.string().nullable(),
  ipAddress: z.string().nullable(),
  userAgent: z.string().nullable(),
  confirmationEmailSent: z.boolean(),
  errorType: z.string().nullable(),
  errorMessage: z.string().nullable(),
  createdAt: z.string(),
});
export type RosterHistoryRecord = z.infer<typeof RosterHistoryRecord>;

/** GET /api/admin/roster-history: one page of records, newest first, and how many match in all. */
export const RosterHistoryList = z.object({ records: z.array(RosterHistoryRecord), total: z.number().int() });
export type RosterHistoryList = z.infer<typeof RosterHistoryList>;

export const RosterHistoryQuery = z.strictObject({
  search: z.string().trim().max(100).optional(),
  source: RosterSource.optional(),
  status: z.enum(['success', 'failed']).optional(),
  range: z.enum(['today', '7days', '30days']).optional(),
  limit: z.coerce.number().int().min(1, 'limit must be 1 to 500').max(500, 'limit must be 1 to 500').default(100),
  offset: z.coerce.number().int().min(0).default(0),
});
export type RosterHistoryQuery = z.infer<typeof RosterHistoryQuery>;

export const RosterStats = z.object({
  totalProcessed: z.number().int(),
  emailProcessed: z.number().int(),
  manualProcessed: z.number().int(),
  successfulProcessed: z.number().int(),
  averageDurationMs: z.number().int(),
  totalTripsAdded: z.number().int(),
});
export type RosterStats = z.infer<typeof RosterStats>;

/** The largest calendar a roster address may answer: cut off while it streams in, and refused. */
export const ROSTER_FETCH_MAX_BYTES = 2 * 1024 * 1024;
/** A pilot may ask for a fetch now at most this often. */
export const ROSTER_REFRESH_INTERVAL_SECONDS = 60;
/** Failures in a row after which an address is paused and the pilot told. */
export const ROSTER_FETCH_MAX_FAILURES = 5;

/**
 * Why a roster address was not fetched or not read, in the pilot's words. None names what the
 * address resolved to: a pilot learns nothing about the cluster's network from a refusal.
 */
export const ROSTER_FETCH_MESSAGES = {
  notAnAddress: 'This is not a web address. Please paste the https:// or webcal:// address of your roster calendar.',
  httpsOnly: 'Only https:// and webcal:// roster addresses can be fetched.',
  unknownHost: 'The server named in this roster address could not be found.',
  privateAddress: 'This roster address points to a private or internal network, which CrewSwap does not fetch from.',
  tooManyRedirects: 'This roster address redirected more than 3 times, so it was not fetched.',
  timeout: (seconds: number) => `The roster address took longer than ${seconds} ${seconds === 1 ? 'second' : 'seconds'} to answer, so nothing was imported.`,
  tooLarge: 'The roster address answered with more than 2 MB, far more than a roster holds, so nothing was imported.',
  unreachable: 'The server of this roster address could not be reached.',
  status: (status: number) => `The roster address answered with an error (HTTP ${status}), so nothing was imported.`,
  tooSoon: (seconds: number) => `Your roster was fetched less than a minute ago. Please wait ${seconds} seconds before asking again.`,
  noSubscription: 'You have no roster address.',
  paused: 'Your roster address failed 5 times in a row, so CrewSwap stopped fetching it. Save it again to restart.',
} as const;

/** The outcome of the last fetch: read and imported, unchanged since the last one (304), failed, or paused after failing 5 times. */
export const RosterSubscriptionStatus = z.enum(['ok', 'not_modified', 'failed', 'paused']);
export type RosterSubscriptionStatus = z.infer<typeof RosterSubscriptionStatus>;

/** PUT /api/roster/subscription: the roster's calendar address (https:// or webcal://). */
export const RosterSubscriptionBody = z.strictObject({ url: z.string(ROSTER_FETCH_MESSAGES.notAnAddress).trim().min(1, ROSTER_FETCH_MESSAGES.notAnAddress).max(2000, ROSTER_FETCH_MESSAGES.notAnAddress) });
export type RosterSubscriptionBody = z.infer<typeof RosterSubscriptionBody>;

/** GET /api/roster/subscription: the pilot's roster address and how its fetching goes. */
export const RosterSubscription = z.object({
  url: z.string(),
  lastFetchedAt: z.string().nullable(),
  lastStatus: RosterSubscriptionStatus,
  /** Why the last fetch failed (the sentence a refusal answers). */
  lastError: z.string().optional(),
  /** When it is fetched next; null while paused. */
  nextFetchAt: z.string().nullable(),
});
export type RosterSubscription = z.infer<typeof RosterSubscription>;

/** PUT /api/roster/subscription and POST .../refresh: the address after a fetch, and what the fetch imported (none on a 304). */
export const RosterSubscriptionFetched = RosterSubscription.extend({ result: RosterUploadResult.optional() });
export type RosterSubscriptionFetched = z.infer<typeof RosterSubscriptionFetched>;

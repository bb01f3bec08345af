/**
 * The contract of a trip's duty times, its value, the flight time limitations setting and the
 * month view (issue 55). The rules themselves are zod-free, in trip-times.ts and legality.ts.
 */
import { z } from 'zod';
import { DEFAULT_FLIGHT_TIME_LIMITS, type FlightTimeLimits, type Legality, type MonthTotals } from './legality';
import type { DutyTimes, Sector, TripValue } from './trip-times';

/** A UTC instant, '2026-03-12T09:40:00Z'. */
const Instant = z.iso.datetime('Times must be UTC instants (YYYY-MM-DDTHH:MM:SSZ)');

export const TripSector = z
  .object({
    flightNo: z.string().min(1).max(10),
    from: z.string().regex(/^[A-Z]{3}$/, 'Airports are 3-letter codes'),
    to: z.string().regex(/^[A-Z]{3}$/, 'Airports are 3-letter codes'),
    departAt: Instant,
    arriveAt: Instant,
    positioning: z.boolean().default(false),
  })
  .refine((sector) => Date.parse(sector.arriveAt) >= Date.parse(sector.departAt), 'A sector cannot arrive before it departs') satisfies z.ZodType<Sector>;

/** What an imported (or typed) trip keeps of its times; null where the roster does not say. */
export const TripDutyTimes = z
  .object({
    reportAt: Instant.nullable().default(null),
    releaseAt: Instant.nullable().default(null),
    sectors: z.array(TripSector).max(40).nullable().default(null),
  })
  .refine(
    (times) => times.reportAt === null || times.releaseAt === null || Date.parse(times.releaseAt) >= Date.parse(times.reportAt),
    'Release cannot be before report',
  ) satisfies z.ZodType<DutyTimes>;

const minutes = z.number().int().min(0);
/** Derived by `tripValue`: what the trip is worth at a glance. */
export const TripValueFields = z.object({
  blockMinutes: minutes.nullable(),
  dutyMinutes: minutes.nullable(),
  nightsAway: minutes,
  landings: minutes.nullable(),
}) satisfies z.ZodType<TripValue>;

const hours = (max: number) => z.number('Must be a number').min(0, 'Must not be negative').max(max, `Cannot exceed ${max}`);
const fields = DEFAULT_FLIGHT_TIME_LIMITS;
/**
 * The `flight_time_limits` setting. Every field has its default, so a value stored before a field
 * existed still reads (and `{}` is the defaults).
 */
export const FlightTimeLimitsSetting = z.object({
  reportMinutes: z.number().int().min(0).max(240).default(fields.reportMinutes),
  releaseMinutes: z.number().int().min(0).max(240).default(fields.releaseMinutes),
  layoverMinHours: hours(48).default(fields.layoverMinHours),
  minRestAtHomeHours: hours(72).default(fields.minRestAtHomeHours),
  minRestAwayHours: hours(72).default(fields.minRestAwayHours),
  maxDuty7DaysHours: hours(168).default(fields.maxDuty7DaysHours),
  maxDuty14DaysHours: hours(336).default(fields.maxDuty14DaysHours),
  maxDuty28DaysHours: hours(672).default(fields.maxDuty28DaysHours),
  maxBlock28DaysHours: hours(672).default(fields.maxBlock28DaysHours),
  maxBlockYearHours: hours(8784).default(fields.maxBlockYearHours),
  recoveryRestHours: hours(168).default(fields.recoveryRestHours),
  recoveryLocalNights: z.number().int().min(0).max(7).default(fields.recoveryLocalNights),
  recoveryEveryHours: hours(744).default(fields.recoveryEveryHours),
}) satisfies z.ZodType<FlightTimeLimits>;

const asJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** How an admin's new value is checked, and stored: as JSON with every field spelled out. */
export const FLIGHT_TIME_LIMITS_RULE = z
  .string()
  .refine((text) => FlightTimeLimitsSetting.safeParse(asJson(text)).success, 'Flight time limits must be a JSON object of hours and minutes')
  .transform((text) => JSON.stringify(FlightTimeLimitsSetting.parse(asJson(text))));

let lastParsed: { text: string; limits: FlightTimeLimits } | undefined;

/**
 * The limits a service applies: the stored setting, or the defaults where it cannot be read.
 * Swaps reads the setting's text with every Find swaps page and accept: the same text answers the
 * same (frozen) object, parsed once, so the checks kept for those limits are found again at once.
 */
export function parseFlightTimeLimits(stored: string | undefined): FlightTimeLimits {
  const text = stored ?? '{}';
  if (lastParsed?.text !== text) {
    const parsed = FlightTimeLimitsSetting.safeParse(asJson(text));
    lastParsed = { text, limits: Object.freeze(parsed.success ? parsed.data : { ...DEFAULT_FLIGHT_TIME_LIMITS }) };
  }
  return lastParsed.limits;
}

/** What Find swaps, proposals and the desk say of a swap: `unknown` when times are missing. */
export const LegalityAnswer = z.object({
  legal: z.union([z.boolean(), z.literal('unknown')]),
  reasons: z.array(z.string()),
}) satisfies z.ZodType<Legality>;

export const PilotMonthTotals = z.object({
  blockMinutes: minutes,
  dutyMinutes: minutes,
  daysAway: minutes,
  daysOff: minutes,
  tripsWithoutTimes: minutes,
}) satisfies z.ZodType<MonthTotals>;

/** `GET /api/pilot/month?month=YYYY-MM[&with=<tripId>&without=<myTripId>]`. */
export const PilotMonthQuery = z.strictObject({
  month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Month must be YYYY-MM'),
  with: z.uuid('Not a valid trip id').optional(),
  without: z.uuid('Not a valid trip id').optional(),
});
export type PilotMonthQuery = z.infer<typeof PilotMonthQuery>;

/** The month's totals, and with `with`/`without` the same after that swap (else null). */
export const PilotMonthResponse = z.object({
  month: z.string(),
  totals: PilotMonthTotals,
  after: PilotMonthTotals.nullable(),
});
export type PilotMonthResponse = z.infer<typeof PilotMonthResponse>;

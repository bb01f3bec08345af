import type { Trip } from '@crewswap/proto';

// Dates (YYYY-MM-DD) and flight numbers (VS123) are ASCII: compared as they are, without
// localeCompare's collator, which is slow to make on a phone at the page's start.
const ascii = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The trips page's order: by start date, then by first flight number. */
export const byStartThenFlight = (a: Trip, b: Trip): number => ascii(a.startDate, b.startDate) || ascii(a.flightNoStart, b.flightNoStart);

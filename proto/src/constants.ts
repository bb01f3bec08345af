/**
 * Plain values with no zod, so the browser can import them (through `@crewswap/proto/browser`)
 * without shipping the schemas. common.ts, auth.ts and trip.ts re-export them.
 */
export const RANKS = ['CP', 'FO'] as const;
export const FLEETS = ['A330', 'A350', 'SFF', 'B787'] as const;
export const BASES = ['LHR', 'MAN'] as const;
export const AIRCRAFT = ['A330', 'A350', 'B787', 'SFF'] as const;

export const MIN_PASSWORD_LENGTH = 6;
export const MAX_LOGIN_ATTEMPTS = 5;
export const MAX_SWAP_DESCRIPTION = 100;

/** Wishes (issue 39): how many a pilot keeps, and how many destinations one lists. */
export const MAX_WISHES = 10;
export const MAX_WISH_DESTINATIONS = 10;

/**
 * Plain values with no zod, so the browser can import them (through `@crewswap/proto/browser`)
 * without shipping the schemas. common.ts, auth.ts and trip.ts re-export them.
 */
export const RANKS = ['CP', 'FO'] as const;
export const FLEETS = ['A330', 'A350', 'SFF', 'B787'] as const;
export const BASES = ['LHR', 'MAN'] as const;
export const AIRCRAFT = ['A330', 'A350', 'B787', 'SFF'] as const;

/**
 * The aircraft a fleet's pilots fly (decisions.md): B787, A330 and A350 pilots their own type,
 * SFF pilots A330, A350 or SFF; an unknown fleet may choose any.
 */
export function aircraftFlownBy(fleet: string | undefined): readonly (typeof AIRCRAFT)[number][] {
  switch (fleet) {
    case 'B787':
    case 'A330':
    case 'A350':
      return [fleet];
    case 'SFF':
      return ['A330', 'A350', 'SFF'];
    default:
      return AIRCRAFT;
  }
}

export const MIN_PASSWORD_LENGTH = 6;
export const MAX_LOGIN_ATTEMPTS = 5;
export const MAX_SWAP_DESCRIPTION = 100;

/** Wishes (issue 39): how many a pilot keeps, and how many destinations one lists. */
export const MAX_WISHES = 10;
export const MAX_WISH_DESTINATIONS = 10;

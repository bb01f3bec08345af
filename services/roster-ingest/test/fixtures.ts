import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ExpectedTrip {
  kind: 'trip' | 'standby';
  flightNoStart: string;
  flightNoEnd: string;
  route: string;
  startDate: string;
  endDate: string;
  aircraft: 'A330' | 'A350' | 'B787' | null;
  icsDescriptionContains: string;
}
type TripFields = Pick<ExpectedTrip, 'flightNoStart' | 'flightNoEnd' | 'route' | 'startDate' | 'endDate'>;
export interface ExpectedFile {
  base: 'LHR' | 'MAN';
  trips?: ExpectedTrip[];
  /** Records the parser yields that trips refuses as overlapping an earlier one (FORMAT.md D1). */
  conflicts?: ExpectedTrip[];
  /** The shared oracle's way of naming them: its reason starts with "conflict". */
  mustNotProduce?: (TripFields & { reason: string })[];
  sameAs?: string;
  eventCount?: number;
  skippedEventCount?: number;
}
export interface FixtureSet {
  dir: string;
  expected: { files: Record<string, ExpectedFile> };
  /** The calendar files (not the mail) with the records they must give. */
  calendars: string[];
  read(name: string): Buffer;
}

function fixtureSet(dir: string): FixtureSet {
  const expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as FixtureSet['expected'];
  return {
    dir,
    expected,
    calendars: Object.keys(expected.files).filter((name) => expected.files[name]!.trips),
    read: (name) => readFileSync(join(dir, name)),
  };
}

/** The repository's own roster fixtures: fixtures/rosters/README.md says what each one exercises. */
export const repoFixtures = fixtureSet(join(__dirname, 'fixtures/rosters'));

/**
 * The project's shared roster oracle sits beside the repository in some checkouts (../shared from
 * its root). Tests may run over it as an extra; a clone without it skips them.
 */
const SHARED_DIR = join(__dirname, '../../../../shared/fixtures/rosters');
export const sharedFixtures: FixtureSet | null = existsSync(join(SHARED_DIR, 'expected.json')) ? fixtureSet(SHARED_DIR) : null;

export const FIXTURES = repoFixtures.dir;
export const readFixture = repoFixtures.read;
export const expected = repoFixtures.expected;
export const CALENDAR_FIXTURES = repoFixtures.calendars;

/** The fixtures' clock: every trip in them lies in the future on this day. */
export const FIXTURE_TODAY = '2026-11-01T12:00:00Z';

export const tripKey = (trip: TripFields & { aircraft: string | null }) =>
  [trip.flightNoStart, trip.flightNoEnd, trip.route, trip.startDate, trip.endDate, trip.aircraft ?? '-'].join(' ');

/** A record's key without the aircraft, which the shared oracle leaves out of its conflicts. */
export const tripKeyNoAircraft = (trip: TripFields) => [trip.flightNoStart, trip.flightNoEnd, trip.route, trip.startDate, trip.endDate].join(' ');

export const conflictsOf = (file: ExpectedFile): TripFields[] =>
  file.conflicts ?? (file.mustNotProduce ?? []).filter((trip) => trip.reason.startsWith('conflict'));

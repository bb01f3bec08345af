import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The shared roster fixtures sit beside the repository: ../shared/fixtures/rosters from its root. */
export const FIXTURES = join(__dirname, '../../../../shared/fixtures/rosters');
export const readFixture = (name: string): Buffer => readFileSync(join(FIXTURES, name));

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
export interface ExpectedFile {
  base: 'LHR' | 'MAN';
  trips?: ExpectedTrip[];
  sameAs?: string;
  eventCount?: number;
  skippedEventCount?: number;
}
export const expected = JSON.parse(readFileSync(join(FIXTURES, 'expected.json'), 'utf8')) as { files: Record<string, ExpectedFile> };
export const CALENDAR_FIXTURES = Object.keys(expected.files).filter((name) => expected.files[name]!.trips);

/** The README's clock: every fixture lies in the future on this day. */
export const FIXTURE_TODAY = '2026-11-01T12:00:00Z';

export const tripKey = (trip: Pick<ExpectedTrip, 'flightNoStart' | 'flightNoEnd' | 'route' | 'startDate' | 'endDate'> & { aircraft: string | null }) =>
  [trip.flightNoStart, trip.flightNoEnd, trip.route, trip.startDate, trip.endDate, trip.aircraft ?? '-'].join(' ');

/**
 * Duty times (issue 55): each fixture style keeps its trips' check-in, check-out and sectors where
 * the roster says them, as UTC instants; where it does not, they are left unknown (null).
 */
import { parseRoster } from '../src/domain/parse-roster';
import { repoFixtures } from './fixtures';

const trip = (file: string, flightNoStart: string) => {
  const found = parseRoster(repoFixtures.read(file).toString('utf8')).trips.find(({ trip }) => trip.flightNoStart === flightNoStart);
  if (!found) throw new Error(`${flightNoStart} not in ${file}`);
  return found.trip;
};
const legs = (sectors: { flightNo: string; from: string; to: string; departAt: string; arriveAt: string; positioning: boolean }[] | null | undefined) =>
  sectors?.map((s) => `${s.flightNo} ${s.from}-${s.to} ${s.departAt}/${s.arriveAt}${s.positioning ? ' positioning' : ''}`) ?? null;

describe('an imported trip keeps its duty times', () => {
  it('NetLine: C/I and C/O lines are the duty event\'s own start and end; legs in UTC between the airports', () => {
    const netline = trip('roster-e-man-a330-netline.ics', 'VS127');
    expect(netline.reportAt).toBe('2026-11-04T08:30:00Z');
    expect(netline.releaseAt).toBe('2026-11-06T08:20:00Z');
    expect(legs(netline.sectors)).toEqual(['VS127 MAN-JFK 2026-11-04T10:30:00Z/2026-11-04T18:50:00Z', 'VS128 JFK-MAN 2026-11-06T00:30:00Z/2026-11-06T07:50:00Z']);
  });

  it('NetLine: a deadhead of another carrier is a positioning sector', () => {
    expect(legs(trip('roster-e-man-a330-netline.ics', 'VS075').sectors)).toContain('AA1437 MCO-ATL 2026-11-16T13:00:00Z/2026-11-16T15:40:00Z positioning');
  });

  it('NetLine: a C/O that does not read the event\'s end leaves the legs unknown, not guessed', () => {
    const moved = trip('roster-e-man-a330-netline.ics', 'VS074');
    expect(moved.reportAt).toBe('2026-11-26T08:00:00Z');
    expect(moved.sectors).toBeNull();
  });

  it('one event per sector, Report in UTC in DESCRIPTION: sectors from the events, check-in from the line, no check-out', () => {
    const cp = trip('roster-a-lhr-a350-cp.ics', 'VS135');
    expect(cp.reportAt).toBe('2026-11-11T08:55:00Z');
    expect(cp.releaseAt).toBeNull();
    expect(legs(cp.sectors)).toEqual([
      'VS135 LHR-LAS 2026-11-11T10:15:00Z/2026-11-11T21:30:00Z',
      'AA2711 LAS-LAX 2026-11-13T22:00:00Z/2026-11-13T23:15:00Z positioning',
      'VS024 LAX-LHR 2026-11-14T23:30:00Z/2026-11-15T10:05:00Z',
    ]);
  });

  it('a Report written in UTC the day before the departure is that day\'s', () => {
    expect(trip('roster-a-lhr-a350-cp.ics', 'VS354').reportAt).toBe('2026-11-28T19:25:00Z');
  });

  it('one event per duty day in local time (TZID): check-in and off duty from the event, the leg on their clocks', () => {
    const fo = trip('roster-b-man-a330-fo.ics', 'VS075');
    expect(fo.reportAt).toBe('2026-11-16T08:05:00Z');
    expect(fo.releaseAt).toBe('2026-11-20T07:50:00Z');
    // MCO 14:25 local (EST) is 19:25 UTC; MCO 19:00 local is midnight UTC.
    expect(legs(fo.sectors)).toEqual(['VS075 MAN-MCO 2026-11-16T09:35:00Z/2026-11-16T19:25:00Z', 'VS076 MCO-MAN 2026-11-20T00:00:00Z/2026-11-20T07:20:00Z']);
  });

  it('all-day pairings with legs in UTC and dated in DESCRIPTION: sectors from the legs, (+1) the next day', () => {
    const pairing = trip('roster-c-lhr-b787-fo.ics_', 'VS025');
    expect(pairing.reportAt).toBeNull();
    expect(legs(pairing.sectors)).toEqual(['VS025 LHR-JFK 2026-12-02T11:15:00Z/2026-12-02T19:25:00Z', 'VS026 JFK-LHR 2026-12-03T23:55:00Z/2026-12-04T07:05:00Z']);
  });

  it('Interbids pairing: Check-in and Check-out in UTC; legs in local time without their zones stay unknown', () => {
    const pairing = trip('roster-d-lhr-a350-interbids.ics', 'VS133');
    expect(pairing.reportAt).toBe('2027-02-02T08:45:00Z');
    expect(pairing.releaseAt).toBe('2027-02-05T08:10:00Z');
    expect(pairing.sectors).toBeNull();
  });

  it('CrewWebPlus: one event per sector (block off to block on), deadheads positioning', () => {
    const sectors = trip('roster-f-lhr-b787-crewwebplus.ics', 'VS021');
    expect(sectors.reportAt).toBeNull();
    expect(legs(sectors.sectors)).toEqual([
      'VS021 LHR-IAD 2026-11-11T11:20:00Z/2026-11-11T19:40:00Z',
      'UA2417 IAD-BOS 2026-11-13T15:00:00Z/2026-11-13T16:30:00Z positioning',
      'VS012 BOS-LHR 2026-11-13T23:30:00Z/2026-11-14T06:05:00Z',
    ]);
  });

  it('standby duties carry no times', () => {
    const standby = parseRoster(repoFixtures.read('roster-e-man-a330-netline.ics').toString('utf8')).trips.find(({ trip }) => trip.flightNoStart === 'VS000')!.trip;
    expect([standby.reportAt, standby.releaseAt, standby.sectors]).toEqual([null, null, null]);
  });
});

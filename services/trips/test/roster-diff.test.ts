import { testTrip } from '@crewswap/kit-testing';
import type { Trip } from '@crewswap/proto';
import { coveredPeriod, diffRoster, isRosterTripIn, type DutyFields } from '../src/domain/roster-diff';

const duty = (flightNoStart: string, flightNoEnd: string, route: string, startDate: string, endDate: string, more: Partial<DutyFields> = {}): DutyFields => ({
  flightNoStart,
  flightNoEnd,
  route,
  startDate,
  endDate,
  aircraft: flightNoStart === 'VS000' ? null : 'A350',
  icsDescription: null,
  isStandby: flightNoStart === 'VS000',
  ...more,
});
const held = (fields: DutyFields, more: Partial<Trip> = {}): Trip => testTrip({ ...fields, source: 'upload', ...more });
const names = (list: DutyFields[]) => list.map((item) => `${item.flightNoStart} ${item.route} ${item.startDate}`);

describe('diffRoster: which held trip is the same duty as a roster entry', () => {
  it('the same flights and start date with nothing different is unchanged; with other text it is changed', () => {
    const sea = held(duty('VS019', 'VS020', 'SEA', '2026-11-04', '2026-11-06'));
    const mco = held(duty('VS092', 'VS093', 'MCO', '2026-11-21', '2026-11-24', { icsDescription: 'seat 12C' }));
    const diff = diffRoster([duty('VS019', 'VS020', 'SEA', '2026-11-04', '2026-11-06'), duty('VS092', 'VS093', 'MCO', '2026-11-21', '2026-11-24', { icsDescription: 'seat 3A' })], [sea, mco]);
    expect(diff.unchanged.map((pair) => pair.trip)).toEqual([sea]);
    expect(diff.changed.map((pair) => [pair.trip, pair.item.icsDescription])).toEqual([[mco, 'seat 3A']]);
    expect(diff.added).toEqual([]);
    expect(diff.removed).toEqual([]);
  });

  it('a duty on overlapping days replaces the held one: a standby that became a flight, new flight numbers on the same days', () => {
    const standby = held(duty('VS000', 'VS000', 'HSBY', '2026-12-06', '2026-12-06'));
    const lax = held(duty('VS007', 'VS008', 'LAX', '2027-01-08', '2027-01-11'));
    const diff = diffRoster([duty('VS003', 'VS004', 'JFK', '2026-12-06', '2026-12-08'), duty('VS023', 'VS024', 'LAX', '2027-01-08', '2027-01-11')], [standby, lax]);
    expect(diff.changed.map((pair) => [pair.trip.id, pair.item.flightNoStart])).toEqual([
      [standby.id, 'VS003'],
      [lax.id, 'VS023'],
    ]);
    expect(diff.added).toEqual([]);
    expect(diff.removed).toEqual([]);
  });

  it('the same flights moved to other days (up to 7 apart, nearest first) are changed; further apart they are removed and added', () => {
    const first = held(duty('VS045', 'VS046', 'IAD', '2026-12-05', '2026-12-07'));
    const second = held(duty('VS045', 'VS046', 'IAD', '2026-12-20', '2026-12-22'));
    const diff = diffRoster([duty('VS045', 'VS046', 'IAD', '2026-12-17', '2026-12-19'), duty('VS045', 'VS046', 'IAD', '2027-01-05', '2027-01-07')], [first, second]);
    expect(diff.changed.map((pair) => [pair.trip.id, pair.item.startDate])).toEqual([[second.id, '2026-12-17']]);
    expect(names(diff.added)).toEqual(['VS045 IAD 2027-01-05']);
    expect(diff.removed).toEqual([first]);
  });

  it('a held trip the roster no longer has is removed, unless an entry that could not be read covers its days', () => {
    const bom = held(duty('VS354', 'VS355', 'BOM', '2026-11-28', '2026-12-01'));
    const los = held(duty('VS411', 'VS412', 'LOS', '2026-12-15', '2026-12-17'));
    const diff = diffRoster([], [bom, los], [{ startDate: '2026-12-16', endDate: '2026-12-16' }]);
    expect(diff.removed).toEqual([bom]);
  });

  it('the period is the roster from its first start to its last end; only roster-sourced trips starting inside it are its own', () => {
    const period = coveredPeriod([duty('VS019', 'VS020', 'SEA', '2026-11-04', '2026-11-06'), duty('VS109', 'VS110', 'ATL', '2026-12-28', '2026-12-31')])!;
    expect(period).toEqual({ from: '2026-11-04', to: '2026-12-31' });
    expect(coveredPeriod([])).toBeNull();
    expect(isRosterTripIn(held(duty('VS003', 'VS004', 'JFK', '2026-11-10', '2026-11-12')), period)).toBe(true);
    expect(isRosterTripIn(held(duty('VS003', 'VS004', 'JFK', '2026-11-10', '2026-11-12'), { source: 'email' }), period)).toBe(true);
    expect(isRosterTripIn(held(duty('VS003', 'VS004', 'JFK', '2026-11-10', '2026-11-12'), { source: 'manual' }), period)).toBe(false);
    expect(isRosterTripIn(held(duty('VS003', 'VS004', 'JFK', '2026-11-02', '2026-11-05')), period)).toBe(false);
    expect(isRosterTripIn(held(duty('VS003', 'VS004', 'JFK', '2027-01-02', '2027-01-05')), period)).toBe(false);
  });
});

import {
  DEFAULT_FLIGHT_TIME_LIMITS,
  FLIGHT_TIME_LIMITS_RULE,
  formatDuration,
  formatTripValue,
  fromMinute,
  monthTotals,
  monthTotalsAfterSwap,
  parseFlightTimeLimits,
  PilotMonthQuery,
  SETTING_DEFAULTS,
  SETTING_VALUE_RULES,
  tripDuties,
  TripDutyTimes,
  tripValue,
} from '@crewswap/proto';
import { at, jfk, trip, typed, ZONE } from './legality-roster';

const spans = (t: Parameters<typeof tripDuties>[0]) => tripDuties(t)?.map((d) => [fromMinute(d.start), fromMinute(d.end), d.flightNo]);

describe('a trip’s duties', () => {
  it('run from the first departure less the report allowance to the last arrival plus the release allowance, split at layovers', () => {
    expect(spans(jfk('j', '2026-01-05', 1))).toEqual([
      ['2026-01-05T09:00:00.000Z', '2026-01-05T18:30:00.000Z', 'VS001'],
      ['2026-01-06T21:00:00.000Z', '2026-01-07T06:30:00.000Z', 'VS002'],
    ]);
  });

  it('take a ground gap of 8 h as a layover, and a shorter one as a turn round inside the duty', () => {
    const withGap = (minutes: number) =>
      trip('t', [
        ['VS001', 'LHR', 'DUB', at('2026-01-05', '06:00'), at('2026-01-05', '07:00')],
        ['VS002', 'DUB', 'LHR', at('2026-01-05', '07:00', minutes), at('2026-01-05', '08:00', minutes)],
      ]);
    expect(tripDuties(withGap(8 * 60 - 1))).toHaveLength(1);
    expect(tripDuties(withGap(8 * 60))).toHaveLength(2);
  });

  it('start at check-in and end at check-out where the roster gives them', () => {
    const t = { ...jfk('j', '2026-01-05', 1), reportAt: at('2026-01-05', '08:15'), releaseAt: at('2026-01-07', '06:45') };
    expect(spans(t)).toEqual([
      ['2026-01-05T08:15:00.000Z', '2026-01-05T18:30:00.000Z', 'VS001'],
      ['2026-01-06T21:00:00.000Z', '2026-01-07T06:45:00.000Z', 'VS002'],
    ]);
  });

  it('are unknown for a typed trip without times, and one duty for check-in and check-out alone within a day', () => {
    expect(tripDuties(typed('t', 'VS001', '2026-01-05', '2026-01-07'))).toBeNull();
    expect(tripDuties({ ...typed('t', 'VS000', '2026-01-05', '2026-01-05'), reportAt: at('2026-01-05', '06:00'), releaseAt: at('2026-01-05', '18:00') })).toHaveLength(1);
    expect(tripDuties({ ...typed('t', 'VS001', '2026-01-05', '2026-01-07'), reportAt: at('2026-01-05', '06:00'), releaseAt: at('2026-01-07', '18:00') })).toBeNull();
  });
});

describe('what a trip is worth', () => {
  const los = trip('los', [
    ['VS411', 'LHR', 'LOS', at('2026-01-05', '10:00'), at('2026-01-05', '18:20')],
    ['VS412', 'LOS', 'LHR', at('2026-01-07', '23:00'), at('2026-01-08', '07:20')],
  ]);

  it('block of operated sectors, duty, nights away and landings; the value line', () => {
    const value = tripValue(los, ZONE);
    expect(value).toEqual({ blockMinutes: 1000, dutyMinutes: 2 * (500 + 90), nightsAway: 3, landings: 2 });
    expect(formatTripValue({ ...los, ...value })).toBe('4 days · 3 nights · block 16:40 · 2 sectors');
  });

  it('counts a positioning sector as duty, but not as block or a landing', () => {
    const positioned = trip('p', [
      ['VS901', 'LHR', 'MAN', at('2026-01-05', '06:00'), at('2026-01-05', '07:00'), true],
      ['VS902', 'MAN', 'JFK', at('2026-01-05', '09:00'), at('2026-01-05', '17:00')],
    ]);
    expect(tripValue(positioned, ZONE)).toEqual({ blockMinutes: 480, dutyMinutes: 60 + 11 * 60 + 30, nightsAway: 0, landings: 1 });
    expect(formatTripValue({ ...positioned, ...tripValue(positioned, ZONE) })).toBe('1 day · block 8:00 · 1 sector');
  });

  it('knows only days and nights of a typed trip without times', () => {
    const t = typed('t', 'VS025', '2026-01-05', '2026-01-06');
    expect(tripValue(t, ZONE)).toEqual({ blockMinutes: null, dutyMinutes: null, nightsAway: 1, landings: null });
    expect(formatTripValue({ ...t, ...tripValue(t, ZONE) })).toBe('2 days · 1 night');
  });

  it('writes durations as the sentences do', () => {
    expect([0, 45, 60, 550, 720].map(formatDuration)).toEqual(['0 min', '45 min', '1 h', '9 h 10 min', '12 h']);
  });

  it('reads duty times with the contract, which refuses a sector arriving before it departs', () => {
    expect(TripDutyTimes.parse({ sectors: los.sectors })).toEqual({ reportAt: null, releaseAt: null, sectors: los.sectors });
    const backwards = { ...los.sectors![0]!, arriveAt: at('2026-01-05', '09:00') };
    expect(TripDutyTimes.safeParse({ sectors: [backwards] }).success).toBe(false);
  });
});

describe('a pilot’s month', () => {
  // British Summer Time: July ends at 23:00 UTC.
  const night = trip('n', [
    ['VS001', 'LHR', 'JFK', at('2026-07-31', '10:00'), at('2026-07-31', '18:00')],
    ['VS002', 'JFK', 'LHR', at('2026-07-31', '22:00'), at('2026-08-01', '06:00')],
  ]);

  it('splits block and duty at local midnight, and counts days away and off', () => {
    // One duty: 09:00 to 06:30 UTC, a 4 h gap at JFK being no layover.
    expect(monthTotals([night], '2026-07', ZONE)).toEqual({ blockMinutes: 480 + 60, dutyMinutes: 14 * 60, daysAway: 1, daysOff: 30, tripsWithoutTimes: 0 });
    expect(monthTotals([night], '2026-08', ZONE)).toEqual({ blockMinutes: 420, dutyMinutes: 7 * 60 + 30, daysAway: 1, daysOff: 30, tripsWithoutTimes: 0 });
  });

  it('counts a typed trip’s days but not its unknown block, and says so', () => {
    expect(monthTotals([typed('t', 'VS025', '2026-02-27', '2026-03-02')], '2026-02', ZONE)).toEqual({
      blockMinutes: 0,
      dutyMinutes: 0,
      daysAway: 2,
      daysOff: 26,
      tripsWithoutTimes: 1,
    });
  });

  it('shows the same totals after a swap: with the offered trip, without the pilot’s own', () => {
    const mine = jfk('mine', '2026-07-10', 1);
    const offered = trip('offer', [['VS025', 'LHR', 'LOS', at('2026-07-20', '10:00'), at('2026-07-20', '16:20')]]);
    const after = monthTotalsAfterSwap([mine], '2026-07', ZONE, { given: mine, taken: offered });
    expect(after).toEqual({ blockMinutes: 380, dutyMinutes: 380 + 90, daysAway: 1, daysOff: 30, tripsWithoutTimes: 0 });
    expect(monthTotals([mine], '2026-07', ZONE)).toMatchObject({ blockMinutes: 960, daysAway: 3 });
  });

  it('is asked for as YYYY-MM', () => {
    expect(PilotMonthQuery.safeParse({ month: '2026-07' }).success).toBe(true);
    expect(PilotMonthQuery.safeParse({ month: '2026-13' }).success).toBe(false);
  });
});

describe('the flight_time_limits setting', () => {
  it('starts as the EASA defaults, and a stored value without a newer field still reads', () => {
    expect(parseFlightTimeLimits(SETTING_DEFAULTS.flight_time_limits)).toEqual(DEFAULT_FLIGHT_TIME_LIMITS);
    expect(parseFlightTimeLimits('{}')).toEqual(DEFAULT_FLIGHT_TIME_LIMITS);
    expect(parseFlightTimeLimits('{"minRestAtHomeHours":14}')).toEqual({ ...DEFAULT_FLIGHT_TIME_LIMITS, minRestAtHomeHours: 14 });
    expect(parseFlightTimeLimits('not json')).toEqual(DEFAULT_FLIGHT_TIME_LIMITS);
  });

  it('read again unchanged is the same limits (the checks kept for them hold), and changed reads anew', () => {
    const stored = '{"minRestAtHomeHours":13}';
    const first = parseFlightTimeLimits(stored);
    expect(parseFlightTimeLimits(stored)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(parseFlightTimeLimits('{"minRestAtHomeHours":15}').minRestAtHomeHours).toBe(15);
    expect(parseFlightTimeLimits(stored)).toEqual(first);
    expect(parseFlightTimeLimits('not json')).toEqual(DEFAULT_FLIGHT_TIME_LIMITS);
  });

  it('is stored with every field spelled out, and refuses what is not a set of limits', () => {
    expect(JSON.parse(FLIGHT_TIME_LIMITS_RULE.parse('{"reportMinutes":75}'))).toEqual({ ...DEFAULT_FLIGHT_TIME_LIMITS, reportMinutes: 75 });
    expect(SETTING_VALUE_RULES.flight_time_limits.safeParse('{"maxDuty7DaysHours":-1}').success).toBe(false);
    expect(SETTING_VALUE_RULES.flight_time_limits.safeParse('60').success).toBe(false);
  });
});

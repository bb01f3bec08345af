import { addDays, checkLegality, checkSwap, DEFAULT_FLIGHT_TIME_LIMITS, localNights, toMinute, type TripTimes } from '@crewswap/proto';
import { at, dailyDuties, duty, HOME, jfk, trip, typed, ZONE } from './legality-roster';

const limits = DEFAULT_FLIGHT_TIME_LIMITS;
const check = (roster: TripTimes[]) => checkLegality(roster, limits, HOME, ZONE);
const day = (n: number) => addDays('2026-01-05', n);

/** A year of LAX trips, one a week from 1 January: 10 h block out, 10 h back; `over` minutes more on the last. */
function laxYear(trips: number, over: number): TripTimes[] {
  return Array.from({ length: trips }, (_, k) => {
    const date = addDays('2026-01-01', 7 * k);
    const back = addDays(date, 1);
    return trip(`lax${k}`, [
      [`VS${String(2 * k + 1).padStart(3, '0')}`, 'LHR', 'LAX', at(date, '10:00'), at(date, '20:00')],
      [`VS${String(2 * k + 2).padStart(3, '0')}`, 'LAX', 'LHR', at(back, '22:00'), at(back, '22:00', 10 * 60 + (k === trips - 1 ? over : 0))],
    ]);
  });
}

/**
 * Each limit at its boundary: the roster built with `over` = 0 is exactly at the limit and passes;
 * one minute over fails with the limit's sentence, and only that one.
 */
const LIMITS: [string, (over: number) => TripTimes[], string][] = [
  [
    'rest before a duty at home base: at least 12 h (ORO.FTL.235(a))',
    (over) => [jfk('a', day(0), 1), trip('b', [['VS003', 'LHR', 'BOS', at(day(2), '19:30', -over), at(day(2), '23:30')]])],
    'Rest before VS003 on 01/07/2026 would be 11 h 59 min; at least 12 h needed',
  ],
  [
    'rest before a duty at home base: at least the preceding duty when that is longer',
    (over) => [duty('a', 'VS001', at(day(0), '06:00'), at(day(0), '20:00')), duty('b', 'VS003', at(day(1), '10:00', -over), at(day(1), '15:00'))],
    'Rest before VS003 on 01/06/2026 would be 13 h 59 min; at least 14 h needed',
  ],
  [
    'rest before a duty away from base: at least 10 h (ORO.FTL.235(b))',
    (over) => [
      trip('a', [
        ['VS001', 'LHR', 'JFK', at(day(0), '10:00'), at(day(0), '18:00')],
        ['VS002', 'JFK', 'LHR', at(day(1), '05:30', -over), at(day(1), '13:30')],
      ]),
    ],
    'Rest before VS002 on 01/06/2026 would be 9 h 59 min; at least 10 h needed',
  ],
  [
    'duty in any 7 consecutive days: at most 60 h (ORO.FTL.210(a)(1))',
    (over) => dailyDuties(day(0), [0, 1, 2, 3, 4, 5], 10, over),
    'Duty in 7 days up to VS006 on 01/10/2026 would be 60 h 1 min; at most 60 h allowed',
  ],
  [
    'duty in any 14 consecutive days: at most 110 h (ORO.FTL.210(a)(2))',
    (over) => dailyDuties(day(0), [0, 1, 2, 3, 4, 5, 8, 9, 10, 11, 12], 10, over),
    'Duty in 14 days up to VS011 on 01/17/2026 would be 110 h 1 min; at most 110 h allowed',
  ],
  [
    'duty in any 28 consecutive days: at most 190 h (ORO.FTL.210(a)(3))',
    (over) => dailyDuties(day(0), [0, 1, 2, 3, 4, 7, 8, 9, 10, 11, 14, 15, 16, 17, 18, 21, 22, 23, 24], 10, over),
    'Duty in 28 days up to VS019 on 01/29/2026 would be 190 h 1 min; at most 190 h allowed',
  ],
  [
    'block in any 28 consecutive days: at most 100 h (ORO.FTL.210(b)(1))',
    (over) => [
      ...[0, 4, 8, 12, 16, 20].map((d, i) => jfk(`j${i}`, day(d), 2 * i + 1)),
      trip('s', [
        ['VS013', 'LHR', 'DUB', at(day(24), '10:00'), at(day(24), '12:00')],
        ['VS014', 'DUB', 'LHR', at(day(24), '13:00'), at(day(24), '15:00', over)],
      ]),
    ],
    'Block in 28 days up to VS014 on 01/29/2026 would be 100 h 1 min; at most 100 h allowed',
  ],
  [
    'block in a calendar year: at most 900 h (ORO.FTL.210(b)(2))',
    (over) => laxYear(45, over),
    'Block in 2026 up to VS090 on 11/06/2026 would be 900 h 1 min; at most 900 h allowed',
  ],
  [
    'a 36 h rest with 2 local nights at least every 168 h (ORO.FTL.235(d)): the time between two',
    (over) => [...dailyDuties(day(0), [0, 1, 2, 3, 4, 5, 6], 6), duty('d8', 'VS008', at(day(7), '02:00'), at(day(7), '08:00', over))],
    'No 36 h rest with 2 local nights from VS001 on 01/05/2026 to VS008 on 01/12/2026; one needed at least every 168 h',
  ],
  [
    'a 36 h rest with 2 local nights at least every 168 h: a rest of 36 h counts, 35 h 59 min does not',
    (over) => [
      ...dailyDuties(day(0), [0, 1, 2, 3], 6),
      duty('d5', 'VS005', at(day(4), '12:00'), at(day(4), '20:00')),
      duty('d6', 'VS006', at(day(6), '08:00', -over), at(day(6), '14:00')),
      duty('d7', 'VS007', at(day(7), '08:00'), at(day(7), '14:00')),
      duty('d8', 'VS008', at(day(8), '08:00'), at(day(8), '14:00')),
      duty('d9', 'VS009', at(day(9), '08:00'), at(day(9), '14:00')),
    ],
    'No 36 h rest with 2 local nights from VS001 on 01/05/2026 to VS009 on 01/14/2026; one needed at least every 168 h',
  ],
];

describe('flight time limitations: each limit at and across its boundary', () => {
  it.each(LIMITS)('%s', (_name, build, sentence) => {
    expect(check(build(0))).toEqual({ legal: true, reasons: [] });
    expect(check(build(1))).toEqual({ legal: false, reasons: [sentence] });
  });

  it('counts a local night as 8 hours between 22:00 and 08:00 local time (ORO.FTL.105), across a clock change', () => {
    const nights = (from: string, to: string) => localNights(toMinute(from), toMinute(to), ZONE);
    expect(nights('2026-01-05T22:00:00Z', '2026-01-06T06:00:00Z')).toBe(1);
    expect(nights('2026-01-05T22:01:00Z', '2026-01-06T06:00:00Z')).toBe(0);
    expect(nights('2026-01-05T20:00:00Z', '2026-01-07T08:00:00Z')).toBe(2);
    expect(nights('2026-01-05T14:00:00Z', '2026-01-07T05:59:00Z')).toBe(1);
    // British Summer Time: 22:00 local is 21:00 UTC.
    expect(nights('2026-07-01T21:00:00Z', '2026-07-02T05:00:00Z')).toBe(1);
    expect(nights('2026-07-01T23:00:00Z', '2026-07-02T07:00:00Z')).toBe(1);
    expect(nights('2026-07-01T23:01:00Z', '2026-07-02T07:01:00Z')).toBe(0);
    // The night the clocks go forward runs 22:00 GMT to 08:00 BST: nine hours.
    expect(nights('2026-03-28T23:00:00Z', '2026-03-29T07:00:00Z')).toBe(1);
    expect(nights('2026-03-28T23:01:00Z', '2026-03-29T07:00:00Z')).toBe(0);
  });

  it('counts a rest at an outstation, however long, as no recovery rest', () => {
    const away = (layoverHours: number) =>
      check([
        ...dailyDuties(day(0), [0, 1, 2], 6),
        trip('t', [
          ['VS101', 'LHR', 'JFK', at(day(3), '10:00'), at(day(3), '18:00')],
          ['VS102', 'JFK', 'LHR', at(day(3), '18:00', layoverHours * 60), at(day(3), '18:00', layoverHours * 60 + 7 * 60)],
        ]),
      ]);
    expect(away(60).legal).toBe(true);
    expect(away(96).reasons).toEqual(['No 36 h rest with 2 local nights from VS001 on 01/05/2026 to VS102 on 01/12/2026; one needed at least every 168 h']);
  });

  it('counts duties and the rests between them, never a whole trip as one duty', () => {
    // Four days away with two 9 h 30 min duties: 19 h of duty, not the 69 h 30 min from report to release.
    const roster = [...dailyDuties(day(0), [0, 1, 2, 3], 10), jfk('j', day(5), 11)];
    expect(check(roster)).toEqual({ legal: true, reasons: [] });
  });
});

describe('a swap is judged on the roster as it would be after it', () => {
  const own = jfk('own', day(0), 1);
  const offer = jfk('offer', day(2), 25);

  it('an offer starting too soon after one of the pilot’s trips is not legal, with the rest figure', () => {
    expect(checkSwap([own], null, offer, limits, HOME, ZONE)).toEqual({
      legal: false,
      reasons: ['Rest before VS025 on 01/07/2026 would be 2 h 30 min; at least 12 h needed'],
    });
  });

  it('is legal when the trip it clashes with is the one given away', () => {
    expect(checkSwap([own], own, offer, limits, HOME, ZONE)).toEqual({ legal: true, reasons: [] });
  });

  it('is unknown when the offered trip, or a trip of the pilot’s near it, has no times', () => {
    expect(checkSwap([own], null, typed('offer', 'VS777', day(10), day(12)), limits, HOME, ZONE)).toEqual({
      legal: 'unknown',
      reasons: ['Times are not known for VS777 on 01/15/2026'],
    });
    expect(checkSwap([typed('mine', 'VS555', day(20), day(22)), own], null, offer, limits, HOME, ZONE).legal).toBe('unknown');
    // More than 28 days away, a trip without times cannot break a limit with the offer.
    expect(checkSwap([typed('mine', 'VS555', day(40), day(42)), own], null, jfk('later', day(5), 25), limits, HOME, ZONE)).toEqual({ legal: true, reasons: [] });
  });

  it('does not blame the offer for the pilot’s own troubles elsewhere in the roster', () => {
    const clash = [jfk('x', day(20), 51), trip('y', [['VS053', 'LHR', 'BOS', at(day(22), '08:00'), at(day(22), '15:00')]])];
    expect(check(clash).legal).toBe(false);
    expect(checkSwap(clash, null, jfk('later', day(5), 25), limits, HOME, ZONE)).toEqual({ legal: true, reasons: [] });
  });
});

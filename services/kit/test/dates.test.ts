import { acceptedDateRange, addDays, addYears, daysBetween, outOfRangeDate } from '@crewswap/proto';

/** Small seeded generator, so a failure reproduces. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

describe('date arithmetic at the edge of time', () => {
  it('stops at the ends of the four-digit calendar instead of spelling year 10000', () => {
    expect(addDays('9999-12-30', 1)).toBe('9999-12-31');
    expect(addDays('9999-12-30', 30)).toBe('9999-12-31');
    expect(addDays('0000-01-02', -30)).toBe('0000-01-01');
    expect(addDays('2026-11-01', 1e12)).toBe('9999-12-31');
    expect(addDays('2026-11-01', -Infinity)).toBe('0000-01-01');
    expect(addYears('9999-06-01', 1)).toBe('9999-12-31');
    expect(addYears('0001-06-01', -5)).toBe('0000-01-01');
  });

  it('keeps ordinary sums as they were', () => {
    expect(addDays('2026-10-25', 1)).toBe('2026-10-26');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addYears('2028-02-29', 1)).toBe('2029-03-01');
    expect(daysBetween('2026-11-01', '2026-12-01')).toBe(30);
  });

  it('never throws on input that is not a date or not a number', () => {
    expect(addDays('not a date', 3)).toBe('not a date');
    expect(addDays('2026-11-01', Number.NaN)).toBe('2026-11-01');
    expect(addYears('', 1)).toBe('');
    expect(daysBetween('x', '2026-11-01')).toBeNaN();
  });

  it('answers a YYYY-MM-DD date for any date and any day count', () => {
    const next = random(9999);
    for (let i = 0; i < 2000; i += 1) {
      const date = addDays('0000-01-01', Math.floor(next() * 3_652_425));
      const days = Math.floor((next() - 0.5) * 10 ** Math.floor(next() * 16));
      expect([date, days, addDays(date, days)]).toEqual([date, days, expect.stringMatching(ISO_DATE)]);
      expect([date, days, addYears(date, days)]).toEqual([date, days, expect.stringMatching(ISO_DATE)]);
    }
  });
});

describe('the dates the API accepts', () => {
  it('runs from a year before today to two years after, edges included', () => {
    expect(acceptedDateRange('2026-11-01')).toEqual({ earliest: '2025-11-01', latest: '2028-11-01' });
    expect(outOfRangeDate(['2025-11-01', '2028-11-01', null, undefined], '2026-11-01')).toBeUndefined();
    const message = 'Dates must be between 11/01/2025 and 11/01/2028. Please check the year.';
    expect(outOfRangeDate(['2026-11-10', '2028-11-02'], '2026-11-01')).toBe(message);
    expect(outOfRangeDate(['2025-10-31'], '2026-11-01')).toBe(message);
    expect(outOfRangeDate(['9999-12-31'], '2026-11-01')).toBe(message);
  });
});

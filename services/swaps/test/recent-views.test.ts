import { createRecentViews } from '../src/data/recent-views';

describe('views recorded lately (so that finding the same offers again asks Postgres nothing)', () => {
  const at = (minutes: number) => new Date(Date.parse('2026-11-20T08:00:00Z') + minutes * 60_000);
  const offers = [{}, {}, {}];

  it('an offer is unrecorded for a pilot until remembered, and again once the hour is up', () => {
    const recent = createRecentViews({ recordAgainAfterMs: 60 * 60_000 });
    expect(recent.unrecorded('pilot-a', offers, at(0))).toEqual([0, 1, 2]);
    recent.remember('pilot-a', [offers[0]!, offers[2]!], at(0));
    expect(recent.unrecorded('pilot-a', offers, at(59))).toEqual([1]);
    expect(recent.unrecorded('pilot-b', offers, at(1))).toEqual([0, 1, 2]);
    expect(recent.unrecorded('pilot-a', offers, at(61))).toEqual([0, 1, 2]);
  });

  it('the same trip held anew (changed, or offered again) is unrecorded', () => {
    const recent = createRecentViews({ recordAgainAfterMs: 60 * 60_000 });
    const before = { tripId: 't1' };
    recent.remember('pilot-a', [before], at(0));
    expect(recent.unrecorded('pilot-a', [before, { tripId: 't1' }], at(1))).toEqual([1]);
  });

  it('past its bound it forgets everything at once', () => {
    const recent = createRecentViews({ recordAgainAfterMs: 60 * 60_000, maxEntries: 4 });
    recent.remember('pilot-a', offers, at(0));
    expect(recent.unrecorded('pilot-a', offers, at(1))).toEqual([]);
    recent.remember('pilot-b', offers.slice(0, 2), at(1));
    expect(recent.unrecorded('pilot-a', offers, at(2))).toEqual([0, 1, 2]);
    expect(recent.unrecorded('pilot-b', offers, at(2))).toEqual([2]);
  });
});

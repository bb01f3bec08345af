import { createRecentViews } from '../src/data/recent-views';

describe('answers whose views were recorded lately (so that asking the same again asks Postgres nothing)', () => {
  const at = (minutes: number) => new Date(Date.parse('2026-11-20T08:00:00Z') + minutes * 60_000);
  const hour = 60 * 60_000;
  const offers = [11, 12, 13];

  it('an answer is unrecorded until remembered, and again once the hour is up', () => {
    const recent = createRecentViews({ recordAgainAfterMs: hour });
    expect(recent.unrecorded('pilot-a trip-1', offers, at(0))).toEqual([0, 1, 2]);
    recent.remember('pilot-a trip-1', offers, at(0));
    expect(recent.unrecorded('pilot-a trip-1', offers, at(59))).toEqual([]);
    expect(recent.unrecorded('pilot-b trip-1', offers, at(1))).toEqual([0, 1, 2]);
    expect(recent.unrecorded('pilot-a trip-1', offers, at(61))).toEqual([0, 1, 2]);
  });

  it('only the offers new to the answer are unrecorded, a trip read again (a new version: changed, or offered again) among them', () => {
    const recent = createRecentViews({ recordAgainAfterMs: hour });
    recent.remember('pilot-a trip-1', [7, offers[0]!], at(0));
    expect(recent.unrecorded('pilot-a trip-1', [offers[0]!, 8, offers[1]!], at(1))).toEqual([1, 2]);
  });

  it('an answer partly recorded earlier stays as old as its oldest view', () => {
    const recent = createRecentViews({ recordAgainAfterMs: hour });
    recent.remember('pilot-a trip-1', [offers[0]!], at(0));
    recent.remember('pilot-a trip-1', offers, at(50));
    expect(recent.unrecorded('pilot-a trip-1', offers, at(61))).toEqual([0, 1, 2]);
  });

  it('the answers over the hour old are let go between busy spells, the younger ones kept', () => {
    const recent = createRecentViews({ recordAgainAfterMs: hour });
    recent.remember('pilot-a trip-1', offers, at(0));
    recent.remember('pilot-b trip-1', offers.slice(0, 2), at(30));
    expect(recent.offersHeld()).toBe(5);
    recent.forgetStale(at(61));
    expect(recent.offersHeld()).toBe(2);
    expect(recent.unrecorded('pilot-b trip-1', offers.slice(0, 2), at(62))).toEqual([]);
  });

  it('past its bound it forgets the answers older than the hour, then if need be all of them', () => {
    const recent = createRecentViews({ recordAgainAfterMs: hour, maxOffers: 4 });
    recent.remember('old', offers.slice(0, 1), at(0));
    recent.remember('pilot-a trip-1', offers.slice(0, 2), at(50));
    recent.remember('pilot-b trip-1', offers.slice(0, 2), at(70));
    expect(recent.unrecorded('pilot-a trip-1', offers.slice(0, 2), at(71))).toEqual([]);
    expect(recent.unrecorded('pilot-b trip-1', offers.slice(0, 2), at(71))).toEqual([]);
    recent.remember('pilot-c trip-1', offers, at(72));
    expect(recent.unrecorded('pilot-a trip-1', offers.slice(0, 2), at(73))).toEqual([0, 1]);
    expect(recent.unrecorded('pilot-c trip-1', offers, at(73))).toEqual([]);
  });
});

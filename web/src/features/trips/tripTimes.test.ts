import { changedFields, formFromTrip, instantOf, localInput } from './tripForm';
import { makeTrip } from '../../../test/render';

describe('Add/Edit Trip: the optional Report and Release times', () => {
  it('an empty field is no time; a filled one is the UTC instant of the pilot\'s local time', () => {
    expect(instantOf('')).toBeNull();
    const local = localInput('2026-11-10T07:05:00Z');
    expect(instantOf(local)).toBe('2026-11-10T07:05:00Z');
  });

  it('Edit Trip sends the times only when they change, and null when cleared', () => {
    const trip = makeTrip({ reportAt: '2026-11-10T07:00:00Z', releaseAt: null });
    const values = formFromTrip(trip);
    expect(changedFields(trip, values)).toEqual({});
    expect(changedFields(trip, { ...values, reportAt: '' })).toEqual({ reportAt: null });
    expect(changedFields(trip, { ...values, releaseAt: localInput('2026-11-10T19:00:00Z') })).toEqual({ releaseAt: '2026-11-10T19:00:00Z' });
  });
});

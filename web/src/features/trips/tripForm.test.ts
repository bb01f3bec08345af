import { describe, expect, it } from 'vitest';
import { HOME_BASES_ONLY_MESSAGE } from '@crewswap/proto/browser';
import { makeTrip } from '../../../test/render';
import {
  aircraftChoices,
  canSubmitTrip,
  changedFields,
  checkRoute,
  dateError,
  EMPTY_TRIP_FORM,
  flightNumberProblem,
  formFromTrip,
  isStandbyEntry,
  shapeTripRoute,
  tripWarnings,
} from './tripForm';

const TODAY = '2026-11-01';
const known = { codes: new Set(['LAX', 'SFO', 'JFK']), fallback: false };

describe('trip dates', () => {
  it('End date cannot be before start date', () => {
    expect(dateError({ startDate: '2026-11-10', endDate: '2026-11-09' }, TODAY)).toBe('End date cannot be before start date');
  });
  it('Trip has already ended (end date is in the past)', () => {
    expect(dateError({ startDate: '2026-10-20', endDate: '2026-10-31' }, TODAY)).toBe('Trip has already ended (end date is in the past)');
    expect(dateError({ startDate: '2026-10-30', endDate: '2026-11-01' }, TODAY)).toBeNull();
  });
  it('warns at 7 days or longer and when the start is more than 56 days away', () => {
    expect(tripWarnings('2026-11-10', '2026-11-17', TODAY)).toEqual({ long: true, far: false });
    expect(tripWarnings('2026-11-10', '2026-11-16', TODAY)).toEqual({ long: false, far: false });
    expect(tripWarnings('2026-12-28', '2026-12-29', TODAY).far).toBe(true);
    expect(tripWarnings('2026-12-27', '2026-12-29', TODAY).far).toBe(false);
  });
});

describe('route against the IATA list', () => {
  it('names the unknown codes', () => {
    expect(checkRoute('LAX-XYZ', known, false)).toEqual({
      message: 'Invalid airport code(s): XYZ (not in IATA database)',
      unknown: ['XYZ'],
    });
  });
  it('waits for an unfinished code until the field is left', () => {
    expect(checkRoute('LAX-S', known, false)).toBeNull();
    expect(checkRoute('LAX-S', known, true)?.message).toBe('Each airport code must be exactly 3 letters');
  });
  it('accepts known codes', () => {
    expect(checkRoute('LAX-SFO', known, true)).toBeNull();
  });
  it("with only the built-in list, a code outside it is 'Unable to validate route at this time', with nothing to add", () => {
    expect(checkRoute('LAX-XYZ', { ...known, fallback: true }, true)).toEqual({ message: 'Unable to validate route at this time', unknown: [] });
    expect(checkRoute('LAX-SFO', { ...known, fallback: true }, true)).toBeNull();
  });
  it('home bases alone are no destination', () => {
    expect(checkRoute('LHR', known, true)?.message).toBe(HOME_BASES_ONLY_MESSAGE);
  });
});

describe('flight numbers', () => {
  it('Please fill in both start and end flight numbers.', () => {
    expect(flightNumberProblem({ ...EMPTY_TRIP_FORM, startDigits: '007' }, 'add')?.message).toBe(
      'Please fill in both start and end flight numbers.',
    );
  });
  it('Flight numbers must be exactly 3 digits each.', () => {
    expect(flightNumberProblem({ ...EMPTY_TRIP_FORM, startDigits: '07', endDigits: '008' }, 'add')).toEqual({
      title: 'Invalid Flight Numbers',
      message: 'Flight numbers must be exactly 3 digits each.',
    });
  });
});

describe('aircraft by fleet', () => {
  it('B787, A330 and A350 pilots get their own type only; SFF pilots choose; unknown gets all four', () => {
    expect(aircraftChoices('B787')).toEqual(['B787']);
    expect(aircraftChoices('SFF')).toEqual(['A330', 'A350', 'SFF']);
    expect(aircraftChoices(undefined)).toHaveLength(4);
  });
});

describe('Add Trip and Update enabling', () => {
  it('Add Trip waits for both flight numbers, route, both dates and aircraft, and no error', () => {
    const full = { ...EMPTY_TRIP_FORM, startDigits: '007', endDigits: '008', route: 'LAX', startDate: '2026-11-10', endDate: '2026-11-12', aircraft: 'A350' as const };
    expect(canSubmitTrip(full, { dateError: null, routeError: null })).toBe(true);
    expect(canSubmitTrip({ ...full, aircraft: null }, { dateError: null, routeError: null })).toBe(false);
    expect(canSubmitTrip(full, { dateError: null, routeError: 'bad' })).toBe(false);
  });
  it('an edit sends only what changed, and companions above 0 also sets Keep', () => {
    const trip = makeTrip();
    expect(changedFields(trip, formFromTrip(trip))).toEqual({});
    expect(changedFields(trip, { ...formFromTrip(trip), companions: 2 })).toEqual({ companions: 2, requested: true });
    expect(changedFields(trip, { ...formFromTrip(trip), endDigits: '009' })).toEqual({ flightNoEnd: 'VS009' });
  });
});

describe('standby duty (VS000 with SBY, HSBY, ASBY or RSV)', () => {
  const standbyFlights = { startDigits: '000', endDigits: '000' };
  it('keeps a 4-letter standby word whole and shapes anything else as airport codes', () => {
    expect(shapeTripRoute('hsby', standbyFlights)).toBe('HSBY');
    expect(shapeTripRoute('rsv', standbyFlights)).toBe('RSV');
    expect(shapeTripRoute('laxsfo', standbyFlights)).toBe('LAX-SFO');
    expect(shapeTripRoute('hsby', { startDigits: '001', endDigits: '002' })).toBe('HSB-Y');
  });
  it('needs no airport check and no aircraft', () => {
    const standby = { ...EMPTY_TRIP_FORM, ...standbyFlights, route: 'RSV', startDate: '2026-11-05', endDate: '2026-11-05' };
    expect(isStandbyEntry(standby)).toBe(true);
    expect(isStandbyEntry({ ...standby, startDigits: '001' })).toBe(false);
    expect(canSubmitTrip(standby, { dateError: null, routeError: null })).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { PILOT } from '../../../test/render';
import { lockedUntil, profileChanges, profileFromPilot, profileProblem } from './profileRules';

describe('Edit My Details', () => {
  it('refuses a phone starting with +0 with the profile message', () => {
    expect(profileProblem({ ...profileFromPilot(PILOT), phone: '+0123' })).toEqual({
      title: 'Invalid Phone Number',
      message:
        'Phone number cannot start with +0. Please enter your number with the correct country code (e.g., +44 for UK, +1 for US).',
    });
  });
  it('needs first and last name', () => {
    expect(profileProblem({ ...profileFromPilot(PILOT), lastName: ' ' })?.title).toBe('Missing Information');
  });
  it('sends only the changed fields; a captain is always APIC and only a captain is LTC', () => {
    expect(profileChanges(PILOT, profileFromPilot(PILOT))).toEqual({});
    expect(profileChanges(PILOT, { ...profileFromPilot(PILOT), phone: '+15550001' })).toEqual({ phone: '+15550001' });
    expect(profileChanges({ ...PILOT, apic: false }, { ...profileFromPilot(PILOT), rank: 'CP', apic: false })).toEqual({ rank: 'CP', apic: true });
    expect(profileChanges(PILOT, { ...profileFromPilot(PILOT), ltc: true })).toEqual({});
  });
  it('rank, fleet and LTC are locked for one year after a change', () => {
    expect(lockedUntil('2026-03-01', '2026-11-01')).toBe('2027-03-01');
    expect(lockedUntil('2025-03-01', '2026-11-01')).toBeNull();
    expect(lockedUntil(null, '2026-11-01')).toBeNull();
  });
});

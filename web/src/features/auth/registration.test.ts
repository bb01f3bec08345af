import { describe, expect, it } from 'vitest';
import { checkRegistration, REGISTRATION_DEFAULTS, shapeEmployeeId, type RegistrationValues } from './registration';

const valid: RegistrationValues = {
  ...REGISTRATION_DEFAULTS,
  firstName: 'Erin',
  lastName: 'Tester',
  employeeId: '123456',
  phone: '+447700900123',
  emailPrefix: 'erin.tester',
  rank: 'FO',
  fleet: 'A350',
  base: 'LHR',
  password: 'secret1',
  confirmPassword: 'secret1',
};

describe('registration checks run in the spec’s order', () => {
  it('accepts a complete registration', () => {
    expect(checkRegistration(valid)).toBeNull();
  });
  it('(1) phone starting +0 comes first, even when everything else is wrong too', () => {
    expect(checkRegistration({ ...REGISTRATION_DEFAULTS, phone: '+0123' })?.title).toBe('Invalid Phone Number');
  });
  it('(2) employee ID must be exactly 6 digits', () => {
    expect(checkRegistration({ ...valid, employeeId: '12345', password: '' })).toEqual({
      title: 'Invalid Employee ID',
      message: 'Employee ID must be exactly 6 digits.',
    });
  });
  it('(3) password at least 6 before (4) mismatch', () => {
    expect(checkRegistration({ ...valid, password: 'abc', confirmPassword: 'xyz' })?.title).toBe('Password Too Short');
    expect(checkRegistration({ ...valid, confirmPassword: 'secret2' })).toEqual({
      title: 'Password Mismatch',
      message: 'Passwords do not match.',
    });
  });
  it('(5) a captain without APIC', () => {
    expect(checkRegistration({ ...valid, rank: 'CP', apic: false })?.title).toBe('APIC Required');
  });
  it('(6) every required field, after the field checks', () => {
    expect(checkRegistration({ ...valid, base: undefined })).toEqual({
      title: 'Missing Information',
      message: 'Please fill in all required fields.',
    });
    expect(checkRegistration({ ...valid, firstName: '  ' })?.title).toBe('Missing Information');
  });
  it('(7) an email prefix with spaces', () => {
    expect(checkRegistration({ ...valid, emailPrefix: 'erin tester' })).toEqual({
      title: 'Invalid Email Format',
      message: 'Email prefix cannot contain spaces.',
    });
  });
  it('form-clear defaults: phone +44, APIC on, Master Roster on, LTC off', () => {
    expect(REGISTRATION_DEFAULTS).toMatchObject({ phone: '+44', apic: true, usualReq: true, ltc: false });
  });
  it('employee ID keeps digits only, at most 6', () => {
    expect(shapeEmployeeId('12a34567')).toBe('123456');
  });
});

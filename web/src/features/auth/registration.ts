import { MIN_PASSWORD_LENGTH, isPlusZeroPhone } from '@crewswap/proto/browser';
import type { Base, Fleet, Rank } from '@crewswap/proto';

export interface RegistrationValues {
  firstName: string;
  lastName: string;
  employeeId: string;
  phone: string;
  emailPrefix: string;
  rank?: Rank;
  fleet?: Fleet;
  base?: Base;
  apic: boolean;
  ltc: boolean;
  usualReq: boolean;
  password: string;
  confirmPassword: string;
}

/** What Cancel and Cancel Registration leave in the form (pilot spec section 4). */
export const REGISTRATION_DEFAULTS: RegistrationValues = {
  firstName: '',
  lastName: '',
  employeeId: '',
  phone: '+44',
  emailPrefix: '',
  rank: undefined,
  fleet: undefined,
  base: undefined,
  apic: true,
  ltc: false,
  usualReq: true,
  password: '',
  confirmPassword: '',
};

export interface Problem {
  title: string;
  message: string;
}

/** The seven registration checks in the spec's order; the first that fails is reported. */
export function checkRegistration(values: RegistrationValues): Problem | null {
  if (isPlusZeroPhone(values.phone)) {
    return {
      title: 'Invalid Phone Number',
      message:
        'Phone number cannot start with +0. Please enter your number with the correct country code (e.g., +44 for UK, +1 for US).',
    };
  }
  if (!/^\d{6}$/.test(values.employeeId)) {
    return { title: 'Invalid Employee ID', message: 'Employee ID must be exactly 6 digits.' };
  }
  if (values.password.length < MIN_PASSWORD_LENGTH) {
    return { title: 'Password Too Short', message: 'Password must be at least 6 characters long.' };
  }
  if (values.password !== values.confirmPassword) {
    return { title: 'Password Mismatch', message: 'Passwords do not match.' };
  }
  if (values.rank === 'CP' && !values.apic) {
    return { title: 'APIC Required', message: 'Captains must have APIC (Approved Pilot in Command) certification.' };
  }
  const required = [
    values.firstName,
    values.lastName,
    values.emailPrefix,
    values.employeeId,
    values.phone,
    values.password,
    values.rank,
    values.fleet,
    values.base,
  ];
  if (required.some((value) => value === undefined || value.trim() === '')) {
    return { title: 'Missing Information', message: 'Please fill in all required fields.' };
  }
  if (/\s/.test(values.emailPrefix)) {
    return { title: 'Invalid Email Format', message: 'Email prefix cannot contain spaces.' };
  }
  return null;
}

/** Digits only, at most 6. */
export function shapeEmployeeId(raw: string): string {
  return raw.replace(/\D/g, '').slice(0, 6);
}

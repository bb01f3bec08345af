import { ADMIN_PHONE_PLUS_ZERO_MESSAGE, isPlusZeroPhone, shapePhone } from '@crewswap/proto/browser';
import type { AdminPilot, AdminUpdatePilotBody } from '@crewswap/proto';

export const REQUIRED_FIELDS_MESSAGE = 'Please fill in all required fields.';

export type PilotFormValues = Required<Pick<AdminUpdatePilotBody, 'employeeId' | 'firstName' | 'lastName' | 'email' | 'phone' | 'rank' | 'fleet' | 'base'>> &
  Pick<AdminUpdatePilotBody, 'apic' | 'ltc' | 'usualReq' | 'allVisible' | 'testData' | 'searchDayRange'>;

const REQUIRED = ['employeeId', 'firstName', 'lastName', 'email', 'phone', 'rank', 'fleet', 'base'] as const;

export function pilotFormValues(pilot: AdminPilot): PilotFormValues {
  return {
    employeeId: pilot.employeeId,
    firstName: pilot.firstName,
    lastName: pilot.lastName,
    email: pilot.email,
    phone: pilot.phone,
    rank: pilot.rank,
    fleet: pilot.fleet,
    base: pilot.base,
    apic: pilot.apic,
    ltc: pilot.ltc,
    usualReq: pilot.usualReq,
    allVisible: pilot.allVisible,
    testData: pilot.testData,
    searchDayRange: pilot.searchDayRange,
  };
}

/**
 * The edit form checked as the spec's section 5 says: every required field filled, a phone that
 * does not start with +0. Answers the message to show, or the body to send (APIC only for an FO,
 * LTC only for a CP).
 */
export function checkPilotForm(values: PilotFormValues): { error: string } | { body: AdminUpdatePilotBody } {
  const phone = shapePhone(values.phone ?? '');
  if (REQUIRED.some((field) => String(field === 'phone' ? phone : (values[field] ?? '')).trim() === '')) return { error: REQUIRED_FIELDS_MESSAGE };
  if (isPlusZeroPhone(phone)) return { error: ADMIN_PHONE_PLUS_ZERO_MESSAGE };
  return {
    body: {
      ...values,
      employeeId: values.employeeId.trim(),
      firstName: values.firstName.trim(),
      lastName: values.lastName.trim(),
      email: values.email.trim(),
      phone,
      apic: values.rank === 'FO' ? (values.apic ?? false) : false,
      ltc: values.rank === 'CP' ? (values.ltc ?? false) : false,
    },
  };
}

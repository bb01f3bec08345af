import { addDays, isPlusZeroPhone, PHONE_PLUS_ZERO_MESSAGE } from '@crewswap/proto/browser';
import type { Pilot, UpdatePilotBody } from '@crewswap/proto';

export interface ProfileValues {
  firstName: string;
  lastName: string;
  phone: string;
  rank: Pilot['rank'];
  fleet: Pilot['fleet'];
  base: Pilot['base'];
  apic: boolean;
  ltc: boolean;
  usualReq: boolean;
  searchDayRange: number | null;
}

export function profileFromPilot(pilot: Pilot): ProfileValues {
  const { firstName, lastName, phone, rank, fleet, base, apic, ltc, usualReq, searchDayRange } = pilot;
  return { firstName, lastName, phone, rank, fleet, base, apic, ltc, usualReq, searchDayRange };
}

export function profileProblem(values: ProfileValues): { title: string; message: string } | null {
  if (values.firstName.trim() === '' || values.lastName.trim() === '') {
    return { title: 'Missing Information', message: 'First and last name are required.' };
  }
  if (isPlusZeroPhone(values.phone)) return { title: 'Invalid Phone Number', message: PHONE_PLUS_ZERO_MESSAGE };
  return null;
}

/** The PATCH body: only what changed. Captains are always APIC; only captains may be LTC. */
export function profileChanges(pilot: Pilot, values: ProfileValues): UpdatePilotBody {
  const next = {
    ...values,
    apic: values.rank === 'CP' ? true : values.apic,
    ltc: values.rank === 'CP' ? values.ltc : false,
  };
  const body: UpdatePilotBody = {};
  for (const key of Object.keys(next) as Array<keyof ProfileValues>) {
    if (next[key] !== pilot[key]) Object.assign(body, { [key]: next[key] });
  }
  return body;
}

/** Rank, fleet and LTC changes are locked for one year after the last change. */
export function lockedUntil(lastChanged: string | null, today: string): string | null {
  if (!lastChanged) return null;
  const until = addDays(lastChanged, 365);
  return until > today ? until : null;
}

import type { PilotContact } from '@crewswap/proto';

type Named = Pick<PilotContact, 'id' | 'fleet' | 'lastName' | 'firstName'>;

/** Master Calendar rows: own row first, then pilots of the same fleet, then by fleet, last name, first name. */
export function masterOrder<T extends Named>(pilots: readonly T[], me: Pick<PilotContact, 'id' | 'fleet'>): T[] {
  const rank = (pilot: Named) => (pilot.id === me.id ? 0 : pilot.fleet === me.fleet ? 1 : 2);
  return [...pilots].sort(
    (a, b) =>
      rank(a) - rank(b) ||
      a.fleet.localeCompare(b.fleet) ||
      a.lastName.localeCompare(b.lastName) ||
      a.firstName.localeCompare(b.firstName),
  );
}

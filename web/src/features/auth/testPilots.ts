import type { ListedPilot } from '../../api/pilots';

export type PilotFilter = 'all' | 'real' | 'test';

/** The Test Pilot Login list: filtered by kind, searched by name, ID, rank or fleet, sorted by name. */
export function filterTestPilots(pilots: readonly ListedPilot[], filter: PilotFilter, search: string): ListedPilot[] {
  const needle = search.trim().toLowerCase();
  return pilots
    .filter((pilot) => filter === 'all' || (filter === 'test' ? pilot.testData === true : pilot.testData !== true))
    .filter((pilot) => {
      if (needle === '') return true;
      const haystack = [`${pilot.firstName} ${pilot.lastName}`, pilot.employeeId, pilot.rank, pilot.fleet];
      return haystack.some((text) => text.toLowerCase().includes(needle));
    })
    .sort((a, b) => `${a.firstName} ${a.lastName}`.localeCompare(`${b.firstName} ${b.lastName}`));
}

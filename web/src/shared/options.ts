import { BASES, FLEETS } from '@crewswap/proto/browser';

export const RANK_OPTIONS = [
  { value: 'CP', label: 'Captain (CP)' },
  { value: 'FO', label: 'First Officer (FO)' },
];
export const FLEET_OPTIONS = FLEETS.map((fleet) => ({ value: fleet, label: fleet }));
export const BASE_OPTIONS = BASES.map((base) => ({ value: base, label: base }));

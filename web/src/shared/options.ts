import { BASES, FLEETS } from '@crewswap/proto/browser';

export const RANK_OPTIONS = [
  { value: 'CP', label: 'Captain (CP)' },
  { value: 'FO', label: 'First Officer (FO)' },
];
export const FLEET_OPTIONS = FLEETS.map((fleet) => ({ value: fleet, label: fleet }));
export const BASE_OPTIONS = BASES.map((base) => ({ value: base, label: base }));
/** Companions: none (0, stored as null) or 1-10. */
export const COMPANION_OPTIONS = [
  { value: 0, label: 'None' },
  ...Array.from({ length: 10 }, (_, i) => ({ value: i + 1, label: String(i + 1) })),
];

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

/** How an offered trip is offered (issue 53): for another trip, to anyone who will fly it, or either. */
export const OFFER_TYPE_LABELS = { swap: 'Swap', giveaway: 'Give away', either: 'Either' } as const;
export const OFFER_TYPE_OPTIONS = (['swap', 'giveaway', 'either'] as const).map((value) => ({ value, label: OFFER_TYPE_LABELS[value] }));

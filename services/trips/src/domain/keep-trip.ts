import type { RequestedBody, Trip, TripChangeOrigin } from '@crewswap/proto';
import type { TripFields } from '../data/trips';
import type { TripWork } from './trip-work';

/** Keep (requested): a kept trip is not on offer and has no search range. */
export function createKeepTrip(deps: { work: TripWork }) {
  const { work } = deps;
  return {
    async execute(input: { pilotId: string; id: string; body: RequestedBody; origin: TripChangeOrigin }): Promise<Trip> {
      return work.asPilot(input.pilotId, async (trx) => {
        const before = await work.ownTrip(trx, input.pilotId, input.id);
        const change: Partial<TripFields> = input.body.requested
          ? { requested: true, isSwappable: false, searchStartDate: null, searchEndDate: null }
          : { requested: false };
        return work.save(trx, before, change, input.origin);
      });
    },
  };
}
export type KeepTrip = ReturnType<typeof createKeepTrip>;

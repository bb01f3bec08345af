import type { DescriptionBody, Trip, TripChangeOrigin } from '@crewswap/proto';
import { checkSwapDescription } from './rules';
import type { TripWork } from './trip-work';

/** Sets the swap description other pilots read with an offer. */
export function createDescribeTrip(deps: { work: TripWork }) {
  const { work } = deps;
  return {
    async execute(input: { pilotId: string; id: string; body: DescriptionBody; origin: TripChangeOrigin }): Promise<Trip> {
      return work.asPilot(input.pilotId, async (trx) => {
        const before = await work.ownTrip(trx, input.pilotId, input.id);
        return work.save(trx, before, { swapDescription: checkSwapDescription(input.body.swapDescription) ?? null }, input.origin);
      });
    },
  };
}
export type DescribeTrip = ReturnType<typeof createDescribeTrip>;

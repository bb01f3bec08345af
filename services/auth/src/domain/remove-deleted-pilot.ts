import { conflict, notFound } from '@crewswap/kit';
import { addDays, daysBetween } from '@crewswap/proto';
import { COOLING_OFF_DAYS } from './deleted-profiles';
import type { AuthDeps } from './deps';

/** Only past the cooling-off period: until then the pilot may still restore the profile. */
export function createRemoveDeletedPilot(deps: Pick<AuthDeps, 'repos' | 'clock'>) {
  const { deleted } = deps.repos;
  return {
    async execute(input: { id: string }): Promise<void> {
      const record = await deleted.byId(input.id);
      if (!record) throw notFound('No deleted pilot with this id.');
      if (daysBetween(record.deletedOn, deps.clock.today()) < COOLING_OFF_DAYS) {
        throw conflict(
          `This pilot was deleted on ${record.deletedOn} and is in the 30-day cooling-off period. It can be removed permanently from ${addDays(record.deletedOn, COOLING_OFF_DAYS)}.`,
        );
      }
      await deleted.remove(input.id);
    },
  };
}

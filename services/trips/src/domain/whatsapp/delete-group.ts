import { notifyCrew } from './notify';
import { requireCreator, viewGroup, type GroupUseCaseDeps, type TripInput } from './state';

/** The creator cancels a pending group or deletes an active one; any crew member may then create anew. */
export function createDeleteWhatsappGroup(deps: GroupUseCaseDeps) {
  return {
    async execute(input: TripInput): Promise<void> {
      await deps.db.transaction(async (trx) => {
        const view = await viewGroup(deps, trx, input, true);
        const group = requireCreator(view, input.pilotId);
        await deps.groups.remove(group.id, trx);
        await notifyCrew(deps.outbox, trx, 'deleted', group, view, input.pilotId);
      });
    },
  };
}

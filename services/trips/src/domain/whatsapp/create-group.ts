import { badRequest } from '@crewswap/kit';
import { WHATSAPP_MESSAGES as W, whatsappGroupName, type WhatsappGroupResponse } from '@crewswap/proto';
import { callerPilot } from '../crew/access';
import { notifyCrew } from './notify';
import { groupResponse, statusOf, viewGroup, type GroupUseCaseDeps, type TripInput } from './state';

/**
 * Any crew member may create the group while the trip has not ended; the server decides its name
 * and creator. When a crew member was quicker, their group is answered with justCreatedByOther.
 */
export function createCreateWhatsappGroup(deps: GroupUseCaseDeps) {
  return {
    async execute(input: TripInput): Promise<{ created: boolean; response: WhatsappGroupResponse }> {
      const me = await callerPilot(deps.pilots, input.pilotId);
      return deps.db.transaction(async (trx) => {
        const view = await viewGroup(deps, trx, input);
        if (view.expired) throw badRequest(W.endedCreate);
        if (view.group) {
          return { created: false, response: groupResponse(view, input.pilotId, view.group.createdByPilotId !== input.pilotId) };
        }
        const group = await deps.groups.insertIfAbsent(
          {
            ...view.key,
            endDate: view.trip.endDate,
            groupName: whatsappGroupName(view.trip),
            createdByPilotId: input.pilotId,
            creatorName: `${me.firstName} ${me.lastName}`.trim(),
          },
          trx,
        );
        if (!group) {
          // Another crew member's create committed between our read and insert.
          const raced = await viewGroup(deps, trx, input);
          return { created: false, response: groupResponse(raced, input.pilotId, true) };
        }
        const created = { ...view, group, status: statusOf(group, false, view.holders) };
        await notifyCrew(deps.outbox, trx, 'created', group, created, input.pilotId);
        return { created: true, response: groupResponse(created, input.pilotId) };
      });
    },
  };
}

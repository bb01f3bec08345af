import { badRequest, conflict, notFound } from '@crewswap/kit';
import { WHATSAPP_MESSAGES as W, type WhatsappGroupResponse } from '@crewswap/proto';
import { callerPilot } from '../crew/access';
import { notifyCrew } from './notify';
import { groupResponse, statusOf, viewGroup, type GroupUseCaseDeps, type TripInput } from './state';

/** A crew member takes over a group whose creator is no longer on the trip. */
export function createClaimWhatsappGroup(deps: GroupUseCaseDeps) {
  return {
    async execute(input: TripInput): Promise<WhatsappGroupResponse> {
      const me = await callerPilot(deps.pilots, input.pilotId);
      return deps.db.transaction(async (trx) => {
        const view = await viewGroup(deps, trx, input, true);
        if (!view.group) throw notFound(W.noGroup);
        if (view.expired) throw badRequest(W.endedLink);
        if (view.status !== 'claimable') throw conflict(W.notClaimable);
        const group = await deps.groups.update(view.group.id, { createdByPilotId: input.pilotId, creatorName: `${me.firstName} ${me.lastName}`.trim() }, trx);
        const next = { ...view, group, status: statusOf(group, false, view.holders) };
        await notifyCrew(deps.outbox, trx, 'claimed', group, next, input.pilotId);
        return groupResponse(next, input.pilotId);
      });
    },
  };
}

import { badRequest } from '@crewswap/kit';
import { WHATSAPP_MESSAGES as W, type UpdateWhatsappGroupBody, type WhatsappGroupResponse } from '@crewswap/proto';
import { notifyCrew } from './notify';
import { groupResponse, requireCreator, statusOf, viewGroup, type GroupUseCaseDeps, type TripInput } from './state';

/** The creator pastes the group's invite link: the group becomes active (or its link changes). */
export function createSetWhatsappGroupLink(deps: GroupUseCaseDeps) {
  return {
    async execute(input: TripInput & { body: UpdateWhatsappGroupBody }): Promise<WhatsappGroupResponse> {
      return deps.db.transaction(async (trx) => {
        const view = await viewGroup(deps, trx, input, true);
        const current = requireCreator(view, input.pilotId);
        if (view.expired) throw badRequest(W.endedLink);
        const wasActive = current.inviteLink !== null;
        const group = await deps.groups.update(current.id, { inviteLink: input.body.inviteLink }, trx);
        const next = { ...view, group, status: statusOf(group, false, view.holders) };
        if (!wasActive || current.inviteLink !== group.inviteLink) await notifyCrew(deps.outbox, trx, 'activated', group, next, input.pilotId);
        return groupResponse(next, input.pilotId);
      });
    },
  };
}

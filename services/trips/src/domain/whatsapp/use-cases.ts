import { badRequest, conflict, forbidden, notFound, type Db, type Outbox } from '@crewswap/kit';
import { WHATSAPP_MESSAGES as W, whatsappGroupName, type UpdateWhatsappGroupBody, type WhatsappGroupResponse } from '@crewswap/proto';
import type { PilotRepository } from '../../data/pilots';
import { callerPilot } from '../crew/access';
import { notifyCrew } from './notify';
import { groupResponse, statusOf, viewGroup, type GroupDeps, type GroupView } from './state';

export interface GroupUseCaseDeps extends GroupDeps {
  db: Db;
  pilots: PilotRepository;
  outbox: Outbox;
}
interface TripInput {
  pilotId: string;
  tripId: string;
}

/** Only the creator may set the link, cancel or delete (pilot-app section 6). */
function requireCreator(view: GroupView, pilotId: string): NonNullable<GroupView['group']> {
  if (!view.group) throw notFound(W.noGroup);
  if (view.group.createdByPilotId !== pilotId) throw forbidden(W.creatorOnly);
  return view.group;
}

/** `GET /api/trips/{id}/whatsapp-group`: the group the caller's crew shares, and its state. */
export function createGetWhatsappGroup(deps: GroupUseCaseDeps) {
  return {
    async execute(input: TripInput): Promise<WhatsappGroupResponse> {
      return deps.db.transaction(async (trx) => groupResponse(await viewGroup(deps, trx, input), input.pilotId));
    },
  };
}

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

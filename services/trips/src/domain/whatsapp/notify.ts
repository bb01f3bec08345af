import { pushToEach, type Outbox, type Trx } from '@crewswap/kit';
import { SUBJECTS, type WhatsappGroupEvent } from '@crewswap/proto';
import type { StoredGroup } from '../../data/whatsapp-groups';
import type { GroupView } from './state';

type Action = 'created' | 'activated' | 'claimed' | 'deleted';

const SUBJECT = {
  created: SUBJECTS.whatsappGroupCreated,
  activated: SUBJECTS.whatsappGroupActivated,
  claimed: SUBJECTS.whatsappGroupClaimed,
  deleted: SUBJECTS.whatsappGroupDeleted,
} as const;

function pushMessage(action: Action, group: StoredGroup): { title: string; body: string } {
  switch (action) {
    case 'created':
      return { title: 'WhatsApp group created', body: `${group.creatorName} is setting up the crew WhatsApp group for ${group.groupName}.` };
    case 'activated':
      return { title: 'WhatsApp group ready', body: `Join the crew WhatsApp group for ${group.groupName}.` };
    case 'claimed':
      return { title: 'WhatsApp group has a new owner', body: `${group.creatorName} now looks after the crew WhatsApp group for ${group.groupName}.` };
    case 'deleted':
      return { title: 'WhatsApp group removed', body: `The crew WhatsApp group for ${group.groupName} was removed. Any crew member may create a new one.` };
  }
}

/**
 * Publishes the group's event and asks notifications for one push per other crew member, in the
 * transaction of the change (as swaps does for offers). The dedupe key names the change, so a
 * redelivered command is sent once while a later change of the same kind is sent again.
 */
export async function notifyCrew(outbox: Outbox, trx: Trx, action: Action, group: StoredGroup, view: GroupView, actorPilotId: string): Promise<void> {
  const crewPilotIds = [...new Set(view.holders.map((holder) => holder.pilotId))].filter((id) => id !== actorPilotId);
  const data: WhatsappGroupEvent = {
    groupId: group.id,
    groupName: group.groupName,
    flightNoStart: group.flightNoStart,
    startDate: group.startDate,
    endDate: group.endDate,
    inviteLink: group.inviteLink,
    createdByPilotId: group.createdByPilotId,
    creatorName: group.creatorName,
    actorPilotId,
    crewPilotIds,
  };
  await outbox.write(trx, SUBJECT[action], data);
  const push = { kind: 'whatsapp_group' as const, ...pushMessage(action, group), url: '/' };
  await pushToEach(outbox, trx, crewPilotIds, push, (pilotId) => `whatsapp_group:${group.id}:${action}:${group.updatedAt}:${pilotId}`);
}

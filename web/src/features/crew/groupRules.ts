import type { WhatsAppGroupResponse, WhatsAppGroupStatus } from '../../api/crewContract';

export const GROUP_MESSAGES = {
  linkBlank: 'Please paste the WhatsApp group invite link',
  linkInvalid: 'Invalid WhatsApp invite link',
  cannotCreateExpired: 'This trip has ended. Groups cannot be created for past trips.',
  linkMayBeInactive: 'This trip has ended. The group link may no longer be active.',
} as const;

/** The invite link field before it is sent: blank is refused here, the server judges the rest. */
export function inviteLinkProblem(text: string): string | null {
  return text.trim() === '' ? GROUP_MESSAGES.linkBlank : null;
}

export interface GroupView {
  status: WhatsAppGroupStatus;
  expired: boolean;
  /** The pilot looking is the group's creator (only they continue setup, cancel or delete). */
  mine: boolean;
}

/** How the section shows the group to this pilot. */
export function groupView(answer: WhatsAppGroupResponse | undefined, pilotId: string): GroupView {
  const group = answer?.group ?? null;
  const expired = Boolean(answer?.isExpired || group?.isExpired || group?.status === 'expired');
  if (!group) return { status: expired ? 'expired' : 'none', expired, mine: false };
  return { status: group.status, expired, mine: group.createdByPilotId === pilotId };
}

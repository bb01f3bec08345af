import type { WhatsappGroupResponse } from '@crewswap/proto';
import { WHATSAPP_INVITE_LINK, WHATSAPP_MESSAGES, type WhatsappGroupStatus } from '@crewswap/proto/browser';

/** The invite link field before it is sent, with the server's own rule and words. */
export function inviteLinkProblem(text: string): string | null {
  const link = text.trim();
  if (link === '') return WHATSAPP_MESSAGES.linkBlank;
  if (!WHATSAPP_INVITE_LINK.test(link)) return WHATSAPP_MESSAGES.linkInvalid;
  return null;
}

export interface GroupView {
  status: WhatsappGroupStatus;
  expired: boolean;
  /** The pilot looking is the group's creator (only they continue setup, cancel or delete). */
  mine: boolean;
}

/** How the section shows the group to this pilot. */
export function groupView(answer: WhatsappGroupResponse | undefined): GroupView {
  const group = answer?.group ?? null;
  const status = answer?.status ?? 'none';
  return { status, expired: Boolean(answer?.isExpired || group?.isExpired || status === 'expired'), mine: group?.isCreator ?? false };
}

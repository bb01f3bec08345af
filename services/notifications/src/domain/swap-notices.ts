import { composeMail, type Executor, type Outbox } from '@crewswap/kit';
import { crewingRequestLines, pilotName, PROPOSAL_NOTICES, SUBJECTS, tripLine, tripPhrase, type EventDataMap, type ProposerSide, type SwapAgreement } from '@crewswap/proto';

type ProposalSubjects = typeof SUBJECTS.proposalMade | typeof SUBJECTS.proposalDeclined;
type AgreementSubjects = typeof SUBJECTS.agreementMade | typeof SUBJECTS.agreementCancelled | typeof SUBJECTS.agreementApproved | typeof SUBJECTS.agreementRefused;
export type SwapNoticeEvent =
  | { id: string; type: ProposalSubjects; data: EventDataMap[ProposalSubjects] }
  | { id: string; type: AgreementSubjects; data: EventDataMap[AgreementSubjects] };

/** The subjects that tell a pilot something; the rest (accepted, countered, ...) are told by these. */
export const NOTICE_SUBJECTS = [
  SUBJECTS.proposalMade,
  SUBJECTS.proposalDeclined,
  SUBJECTS.agreementMade,
  SUBJECTS.agreementCancelled,
  SUBJECTS.agreementApproved,
  SUBJECTS.agreementRefused,
] as const;

const PROPOSALS_URL = '/?view=proposals';

/**
 * Swaps' proposal and agreement events become pushes (kind swap_proposal: the 'Swap proposals'
 * preference decides) and mails, asked of the notifications stream in the transaction that
 * records the event, so a redelivery asks nothing twice.
 */
export function createSwapNotices(deps: { outbox: Outbox; product: string }) {
  const { outbox, product } = deps;
  const push = (trx: Executor, pilotId: string, title: string, body: string, key: string) =>
    outbox.write(trx, SUBJECTS.sendPush, { pilotId, kind: 'swap_proposal', title, body, url: PROPOSALS_URL, dedupeKey: `${key}:${pilotId}` });
  const mail = (trx: Executor, to: string, subject: string, greeting: string | undefined, lines: string[]) =>
    outbox.write(trx, SUBJECTS.sendMail, { to, subject, ...composeMail({ product, greeting, lines }) });

  const bothPilots = (agreement: SwapAgreement) => [agreement.proposer, agreement.owner];
  const otherOf = (agreement: SwapAgreement, side: ProposerSide) => (side === agreement.proposer ? agreement.owner : agreement.proposer);

  return {
    async apply(event: SwapNoticeEvent, crewingEmail: string, trx: Executor): Promise<void> {
      const key = `swaps:${event.id}`;
      switch (event.type) {
        case SUBJECTS.proposalMade: {
          const { proposer, owner, note } = event.data.proposal;
          const offer = proposer.trip ? `offers ${tripLine(proposer.trip)} for your ${tripLine(owner.trip)}` : `wants to pick up your ${tripPhrase(owner.trip)}`;
          const body = `${pilotName(proposer)} ${offer}${note ? `: ${note}` : ''}`;
          await push(trx, owner.pilot.id, PROPOSAL_NOTICES.proposed, body, key);
          return;
        }
        case SUBJECTS.proposalDeclined: {
          const { proposer, owner, reason } = event.data.proposal;
          await push(trx, proposer.pilot.id, PROPOSAL_NOTICES.declined, `${pilotName(owner)}: ${tripLine(owner.trip)}${reason ? ` (${reason})` : ''}`, key);
          return;
        }
        case SUBJECTS.agreementMade: {
          const { agreement } = event.data;
          const lines = crewingRequestLines(agreement);
          for (const side of bothPilots(agreement)) {
            const other = otherOf(agreement, side);
            const deal = other.trip ? `you take ${tripLine(other.trip)}` : `you give away ${tripLine(agreement.owner.trip)}`;
            await push(trx, side.pilot.id, PROPOSAL_NOTICES.agreed, `With ${pilotName(other)}: ${deal}. Awaiting crewing.`, key);
            await mail(trx, side.pilot.email, `${PROPOSAL_NOTICES.agreed}: crewing request`, `Hello ${side.pilot.firstName},`, lines);
          }
          if (crewingEmail) await mail(trx, crewingEmail, `Trip swap request: ${pilotName(agreement.proposer)} and ${pilotName(agreement.owner)}`, undefined, lines);
          return;
        }
        case SUBJECTS.agreementApproved:
        case SUBJECTS.agreementRefused: {
          // Crewing decided at the desk: each pilot is told by push (the bell and SSE follow) and by mail.
          const { agreement } = event.data;
          const approved = event.type === SUBJECTS.agreementApproved;
          for (const side of bothPilots(agreement)) {
            const line = approved ? approvedLine(agreement, side.pilot.id) : `${PROPOSAL_NOTICES.refused}: ${agreement.reason ?? 'no reason given'}`;
            const title = approved ? PROPOSAL_NOTICES.approved : PROPOSAL_NOTICES.refused;
            await push(trx, side.pilot.id, title, line, key);
            await mail(trx, side.pilot.email, title, `Hello ${side.pilot.firstName},`, [line]);
          }
          return;
        }
        case SUBJECTS.agreementCancelled: {
          const { agreement, by } = event.data;
          const title = PROPOSAL_NOTICES.cancelled;
          for (const side of bothPilots(agreement)) {
            const other = otherOf(agreement, side);
            const body = agreement.proposer.trip
              ? `Your swap with ${pilotName(other)}: ${tripLine(side.trip!)} for ${tripLine(other.trip!)}.`
              : `Your give-away with ${pilotName(other)}: ${tripLine(agreement.owner.trip)}.`;
            await push(trx, side.pilot.id, title, body, key);
            // Both are told of a cancellation by mail too: the crewing request they hold no longer stands.
            if (event.type === SUBJECTS.agreementCancelled && side.pilot.id !== by) {
              await mail(trx, side.pilot.email, PROPOSAL_NOTICES.cancelled, `Hello ${side.pilot.firstName},`, [`${pilotName(other)} cancelled your agreed swap.`, body, 'The crewing request no longer stands.']);
            }
          }
          return;
        }
      }
    },
  };
}
export type SwapNotices = ReturnType<typeof createSwapNotices>;

/**
 * 'Swap approved: you now fly VS025/VS026 JFK 12-15 Jan': the trip this pilot now flies (the
 * other's); in a give-away the giver is told the trip went.
 */
export function approvedLine(agreement: SwapAgreement, pilotId: string): string {
  const { proposer, owner } = agreement;
  if (pilotId === proposer.pilot.id) return `Swap approved: you now fly ${tripPhrase(owner.trip)}`;
  if (proposer.trip) return `Swap approved: you now fly ${tripPhrase(proposer.trip)}`;
  return `Swap approved: ${tripPhrase(owner.trip)} now goes to ${pilotName(proposer)}`;
}

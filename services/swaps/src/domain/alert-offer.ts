import { createHash } from 'node:crypto';
import { pushToEach, type Clock, type Outbox, type Runtime, type Trx } from '@crewswap/kit';
import type { PilotContact, Trip } from '@crewswap/proto';
import type { AlertsRepository } from '../data/alerts';
import type { ReadModelRepository } from '../data/read-model';

export interface AlertOfferResult {
  /** Pilots asked to be alerted now. */
  alerted: number;
  /** Compatible pilots with alerts on, including those already told about this description. */
  recipients: number;
}

/** Every alert of one offer and description has the same hash, so each pilot hears of it once. */
export function descriptionHash(description: string | null): string {
  return createHash('sha256').update((description ?? '').trim()).digest('hex');
}

/**
 * Fans an offer out to every pilot with a compatible trip whose window covers it: one push command
 * per recipient through the notifications stream, recorded in alerts_sent in the same transaction
 * so neither a redelivery nor a second press alerts anyone twice for the same description.
 */
export function createAlertOffer(deps: { readModel: ReadModelRepository; alerts: AlertsRepository; outbox: Outbox; clock: Clock; log: Runtime['log'] }) {
  const { readModel, alerts, outbox, clock, log } = deps;
  return {
    async execute(trx: Trx, input: { tripId: string }): Promise<AlertOfferResult> {
      const none = { alerted: 0, recipients: 0 };
      const offer = await readModel.findTrip(input.tripId, trx);
      if (!offer || !offer.isSwappable) return none;
      // Nobody can swap into a trip that has already started.
      if (offer.startDate < clock.today()) return none;
      const owner = await readModel.findPilot(offer.pilotId, trx);
      if (!owner) {
        log.warn({ tripId: offer.id, pilotId: offer.pilotId }, 'offer from a pilot not in the read model yet; no alerts');
        return none;
      }
      const settingDays = await readModel.swapSearchDays(trx);
      // Who matches is the swap rule's (domain/swap-rule.ts), standby duties included.
      const found = await readModel.findRecipients({ owner, offer, settingDays }, trx);
      // Pilots with swap alerts off are left out by the query (notifications' preferences, projected).
      const recipients = found.map((r) => r.pilotId);
      const hash = descriptionHash(offer.swapDescription);
      const fresh = await alerts.claim(trx, offer.id, hash, recipients);
      const push = { kind: 'swap_offer' as const, ...pushMessage(offer, owner.contact), url: '/' };
      await pushToEach(outbox, trx, fresh, push, (pilotId) => `swap_offer:${offer.id}:${pilotId}:${hash.slice(0, 16)}`);
      return { alerted: fresh.length, recipients: recipients.length };
    },
  };
}
export type AlertOffer = ReturnType<typeof createAlertOffer>;

function pushMessage(offer: Trip, owner: PilotContact): { title: string; body: string } {
  const description = offer.swapDescription?.trim();
  const dates = offer.startDate === offer.endDate ? offer.startDate : `${offer.startDate} to ${offer.endDate}`;
  return {
    title: offer.training ? 'New training swap offer' : 'New swap offer',
    body: `${owner.firstName} ${owner.lastName} offers ${offer.flightNoStart}/${offer.flightNoEnd} ${offer.route} (${offer.aircraft}), ${dates}${description ? `: ${description}` : ''}`,
  };
}

import { createHash } from 'node:crypto';
import { pushToEach, type Clock, type Outbox, type Runtime, type Trx } from '@crewswap/kit';
import { SUBJECTS, type PilotContact, type Trip } from '@crewswap/proto';
import type { AlertsRepository } from '../data/alerts';
import type { ReadModelRepository } from '../data/read-model';
import type { StoredWish, WishRepository } from '../data/wishes';
import { isUrgent } from '../rules/swap-rule';

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
 * Fans an offer out to every pilot with a compatible trip whose window covers it, and to every
 * pilot with a wish it answers (named in the alert): one push command per recipient through the
 * notifications stream, recorded in alerts_sent in the same transaction so neither a redelivery
 * nor a second press alerts anyone twice for the same description. An offer starting within 48
 * hours says Urgent and is marked so, for quiet hours to let through when the pilot allows it.
 */
export function createAlertOffer(deps: { readModel: ReadModelRepository; wishes: WishRepository; alerts: AlertsRepository; outbox: Outbox; clock: Clock; log: Runtime['log'] }) {
  const { readModel, wishes, alerts, outbox, clock, log } = deps;
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
      // Who matches is the swap rule's (rules/swap-rule.ts), standby duties included.
      const found = await readModel.findRecipients({ owner, offer, settingDays }, trx);
      // The same rule again, from the wishes' side: a pilot may want this offer by a wish alone.
      const wished = new Map((await wishes.findAnswered({ owner, offer, settingDays }, trx)).map((wish) => [wish.pilotId, wish]));
      // Pilots with swap alerts off are left out by the query (notifications' preferences, projected).
      const recipients = [...new Set([...found.map((r) => r.pilotId), ...wished.keys()])];
      const hash = descriptionHash(offer.swapDescription);
      const fresh = await alerts.claim(trx, offer.id, hash, recipients);
      const urgent = isUrgent(offer.startDate, clock.now());
      const message = pushMessage(offer, owner.contact, urgent);
      const dedupeKey = (pilotId: string) => `swap_offer:${offer.id}:${pilotId}:${hash.slice(0, 16)}`;
      const push = { kind: 'swap_offer' as const, ...message, url: '/', reason: urgent ? ('urgent' as const) : ('offer' as const), urgent };
      await pushToEach(outbox, trx, fresh.filter((pilotId) => !wished.has(pilotId)), push, dedupeKey);
      const byWish = fresh.flatMap((pilotId) => {
        const wish = wished.get(pilotId);
        return wish ? [{ data: { ...push, reason: 'wish' as const, title: wishTitle(wish, urgent), pilotId, dedupeKey: dedupeKey(pilotId) } }] : [];
      });
      for (let i = 0; i < byWish.length; i += 1000) await outbox.writeMany(trx, SUBJECTS.sendPush, byWish.slice(i, i + 1000));
      return { alerted: fresh.length, recipients: recipients.length };
    },
  };
}
export type AlertOffer = ReturnType<typeof createAlertOffer>;

/** What the pilot called the wish: its airports, and its dates when it has them. */
export function wishName(wish: Pick<StoredWish, 'destinations' | 'startDate' | 'endDate'>): string {
  const dates = wish.startDate || wish.endDate ? ` (${wish.startDate ?? '…'} to ${wish.endDate ?? '…'})` : '';
  return `${wish.destinations.join(', ')}${dates}`;
}

function wishTitle(wish: StoredWish, urgent: boolean): string {
  return `${urgent ? 'Urgent: ' : ''}Swap offer for your wish ${wishName(wish)}`;
}

function pushMessage(offer: Trip, owner: PilotContact, urgent: boolean): { title: string; body: string } {
  const description = offer.swapDescription?.trim();
  const dates = offer.startDate === offer.endDate ? offer.startDate : `${offer.startDate} to ${offer.endDate}`;
  const title = offer.training ? 'New training swap offer' : 'New swap offer';
  return {
    title: urgent ? `Urgent: ${title.replace(/^New/, 'new')}` : title,
    body: `${owner.firstName} ${owner.lastName} offers ${offer.flightNoStart}/${offer.flightNoEnd} ${offer.route} (${offer.aircraft}), ${dates}${description ? `: ${description}` : ''}`,
  };
}

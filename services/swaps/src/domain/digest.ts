import { composeMail, type Clock, type Db, type Outbox } from '@crewswap/kit';
import { localTime, SUBJECTS, type Trip } from '@crewswap/proto';
import type { DigestReader, DigestRepository } from '../data/digest';
import type { ReadModelRepository } from '../data/read-model';
import type { WishRepository } from '../data/wishes';
import { wishName } from './alert-offer';

/** A digest goes at most once in this long, whatever the clock does around its hour. */
const DIGEST_GAP_MS = 20 * 60 * 60 * 1000;
/** A first digest covers the day before. */
const FIRST_DIGEST_MS = 24 * 60 * 60 * 1000;
const MAILS_PER_BATCH = 500;

interface Found {
  /** The pilot's trip it could swap with, or the wish it answers. */
  group: string;
  offer: Trip;
  link: string;
}

/**
 * The daily digest: at the pilot's chosen hour, in their time zone, one mail with the offers made
 * since their last digest that suit one of their upcoming trips (by the swap rule) or answer one
 * of their wishes, grouped by trip, each with a link. Nothing new, no mail. Each mail goes out
 * through the outbox in the transaction that records it was sent; notifications adds the
 * signed one-click unsubscribe link and header. Runs every minute.
 */
export function createDigest(deps: {
  db: Db;
  digests: DigestRepository;
  readModel: ReadModelRepository;
  wishes: WishRepository;
  outbox: Outbox;
  clock: Clock;
  origin: string;
  product: string;
}) {
  const { db, digests, readModel, wishes, outbox, clock, origin, product } = deps;
  const findLink = (trip: Trip) => `${origin}/?trip=${trip.id}`;

  return {
    async execute(): Promise<{ readers: number; mailed: number }> {
      const now = clock.now();
      const today = clock.today();
      const notSince = new Date(now.getTime() - DIGEST_GAP_MS);
      const readers = (await digests.readers(notSince)).filter(
        (reader) => Number(localTime(now, reader.digest.timeZone).slice(0, 2)) === reader.digest.hour,
      );
      if (readers.length === 0) return { readers: 0, mailed: 0 };
      const sinceOf = (reader: DigestReader) => reader.lastDigestAt ?? new Date(now.getTime() - FIRST_DIGEST_MS);
      const earliest = new Date(Math.min(...readers.map((reader) => sinceOf(reader).getTime())));

      // Every new offer against every reader at once: the swap rule as a join, not asked offer by offer.
      const offers = await digests.offersSince(earliest, today);
      const items = await digests.found({
        offers,
        readers: readers.map((reader) => ({ pilotId: reader.pilotId, since: sinceOf(reader) })),
        today,
        settingDays: await readModel.swapSearchDays(),
      });
      const offerById = new Map(offers.map(({ offer }) => [offer.id, offer]));
      const tripIds = [...new Set(items.flatMap((item) => (item.tripId ? [item.tripId] : [])))];
      const wishIds = [...new Set(items.flatMap((item) => (item.wishId ? [item.wishId] : [])))];
      const [trips, answered] = await Promise.all([readModel.findTrips(tripIds), wishes.byIds(wishIds)]);
      const tripById = new Map(trips.map((trip) => [trip.id, trip]));
      const wishById = new Map(answered.map((wish) => [wish.id, wish]));
      const found = new Map<string, Found[]>();
      for (const { pilotId, offerId, tripId, wishId } of items) {
        const offer = offerById.get(offerId)!;
        const trip = tripId === null ? undefined : tripById.get(tripId);
        const wish = wishId === null ? undefined : wishById.get(wishId);
        const item = trip
          ? { group: `Your trip ${trip.flightNoStart}/${trip.flightNoEnd} ${trip.route}, ${trip.startDate}`, offer, link: findLink(trip) }
          : wish && { group: `Your wish ${wishName(wish)}`, offer, link: `${origin}/` };
        if (!item) continue;
        const list = found.get(pilotId);
        if (list) list.push(item);
        else found.set(pilotId, [item]);
      }

      let mailed = 0;
      for (let i = 0; i < readers.length; i += MAILS_PER_BATCH) {
        const batch = readers.slice(i, i + MAILS_PER_BATCH);
        mailed += await db.transaction(async (trx) => {
          // Every replica runs this each minute: a reader another one has just mailed is left out.
          const claimed = await digests.claim(batch.map((reader) => reader.pilotId), now, notSince, trx);
          const mails = batch.flatMap((reader) => {
            const items = claimed.has(reader.pilotId) ? found.get(reader.pilotId) : undefined;
            return items ? [{ data: { to: reader.contact.email, subject: `${product} daily digest: ${countOf(items.length)}`, ...mailOf(reader, items, product, origin), digestFor: reader.pilotId } }] : [];
          });
          if (mails.length > 0) await outbox.writeMany(trx, SUBJECTS.sendMail, mails);
          return mails.length;
        });
      }
      return { readers: readers.length, mailed };
    },
  };
}
export type Digest = ReturnType<typeof createDigest>;

const countOf = (n: number) => (n === 1 ? '1 new swap offer' : `${n} new swap offers`);

function mailOf(reader: DigestReader, items: Found[], product: string, origin: string) {
  const groups = new Map<string, Found[]>();
  for (const item of items) {
    const group = groups.get(item.group);
    if (group) group.push(item);
    else groups.set(item.group, [item]);
  }
  const lines = [`${countOf(items.length)} since your last digest.`];
  for (const [group, offers] of groups) {
    lines.push('', `${group}:`);
    for (const { offer, link } of offers) {
      const dates = offer.startDate === offer.endDate ? offer.startDate : `${offer.startDate} to ${offer.endDate}`;
      lines.push(`${offer.flightNoStart}/${offer.flightNoEnd} ${offer.route} (${offer.aircraft}), ${dates}${offer.swapDescription ? `: ${offer.swapDescription}` : ''} - ${link}`);
    }
  }
  return composeMail({ product, greeting: `Hello ${reader.contact.firstName},`, lines, link: `${origin}/` });
}

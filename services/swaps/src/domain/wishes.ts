import { badRequest, notFound, type Clock, type Db } from '@crewswap/kit';
import { MAX_WISHES, outOfRangeDate, tripWindow, WISH_MESSAGES, type SwapMatch, type Trip, type Wish, type WishBody } from '@crewswap/proto';
import type { OfferIndex } from '../data/offer-index';
import type { ReadModelRepository } from '../data/read-model';
import type { StoredWish, WishRepository } from '../data/wishes';
import { urgentDates } from '../rules/swap-rule';
import { wishAccepts } from '../rules/wish-match';

/**
 * The pilot's wishes: saved, changed, deleted, and listed with how many current offers match
 * each. An offer matches a wish when it could swap with one of the pilot's upcoming trips (the
 * wish's own trip when it names one) by the swap rule, Find swaps' own answer, and lands on one of
 * the wish's airports inside its dates.
 */
export function createWishes(deps: { db: Db; wishes: WishRepository; readModel: ReadModelRepository; offers: Pick<OfferIndex, 'find'>; clock: Clock }) {
  const { db, wishes, readModel, offers, clock } = deps;

  /** Find swaps for each trip, asked once however many wishes look at it. */
  function matcher(pilotId: string) {
    const today = clock.today();
    const context = (async () => {
      const [asker, settingDays, trips] = await Promise.all([readModel.findPilot(pilotId), readModel.swapSearchDays(), wishes.liveTripsOf(pilotId, today)]);
      return { asker, settingDays, trips };
    })();
    const found = new Map<string, Promise<SwapMatch[]>>();
    const offersFor = (asker: NonNullable<Awaited<typeof context>['asker']>, trip: Trip, settingDays: number, trips: Trip[]) => {
      let answer = found.get(trip.id);
      if (!answer) {
        // The whole list (no page), as Find swaps answers it; Mutual asks for the pilot's other trips.
        const askerOtherTrips = trips.filter((t) => t.id !== trip.id).map((t) => ({ from: t.startDate, to: t.endDate }));
        const window = tripWindow(trip, asker.searchDayRange, settingDays);
        const query = { asker, trip, window, askerOtherTrips, settingDays, urgent: urgentDates(clock.now()), page: null };
        answer = (async () => JSON.parse((offers.find(query)?.json ?? (await readModel.findOffersJson(query))).toString()) as SwapMatch[])();
        found.set(trip.id, answer);
      }
      return answer;
    };
    return async (wish: StoredWish): Promise<number> => {
      const { asker, settingDays, trips } = await context;
      if (!asker || asker.deleted) return 0;
      const matching = new Set<string>();
      for (const trip of trips.filter((t) => wish.forTripId === null || t.id === wish.forTripId)) {
        for (const match of await offersFor(asker, trip, settingDays, trips)) {
          if (match.trip.startDate >= today && wishAccepts(wish, match.trip)) matching.add(match.trip.id);
        }
      }
      return matching.size;
    };
  }

  const toAnswer = async (wish: StoredWish, count: (wish: StoredWish) => Promise<number>): Promise<Wish> => {
    const { pilotId: _pilotId, ...shown } = wish;
    return { ...shown, matchingOffers: await count(wish) };
  };

  async function check(pilotId: string, body: WishBody): Promise<void> {
    const outOfRange = outOfRangeDate([body.startDate, body.endDate], clock.today());
    if (outOfRange) throw badRequest(outOfRange);
    if (body.forTripId) {
      const trip = await readModel.findTrip(body.forTripId);
      if (!trip || trip.pilotId !== pilotId) throw notFound(WISH_MESSAGES.tripNotFound);
    }
  }

  return {
    async list(pilotId: string): Promise<Wish[]> {
      const count = matcher(pilotId);
      return Promise.all((await wishes.list(pilotId)).map((wish) => toAnswer(wish, count)));
    },

    async create(pilotId: string, body: WishBody): Promise<Wish> {
      await check(pilotId, body);
      const saved = await db.transaction(async (trx) => {
        if ((await wishes.countForUpdate(pilotId, trx)) >= MAX_WISHES) throw badRequest(WISH_MESSAGES.tooMany);
        return wishes.insert(pilotId, body, clock.now(), trx);
      });
      return toAnswer(saved, matcher(pilotId));
    },

    async update(pilotId: string, id: string, body: WishBody): Promise<Wish> {
      await check(pilotId, body);
      const saved = await wishes.update(pilotId, id, body);
      if (!saved) throw notFound(WISH_MESSAGES.notFound);
      return toAnswer(saved, matcher(pilotId));
    },

    async remove(pilotId: string, id: string): Promise<void> {
      if (!(await wishes.remove(pilotId, id))) throw notFound(WISH_MESSAGES.notFound);
    },
  };
}
export type Wishes = ReturnType<typeof createWishes>;

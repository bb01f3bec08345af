/**
 * The Find swaps views this replica has recorded lately, so that a pilot looking at the same offers
 * again (scrolling back, the app refetching on focus, a pull to refresh) costs Postgres no
 * statement: the record would change nothing within the hour (offer-views.ts).
 *
 * A view is remembered by the offer as the offer index holds it, not by its trip id: the index
 * holds a changed, withdrawn or re-offered trip as a new object (on every replica, since each
 * follows the table), so an offer that went and came back is recorded afresh, and a pilot who saw
 * it again is told if it goes again. Past `maxEntries` everything is forgotten at once; the
 * statement's own check then does the same work, in Postgres.
 */
export function createRecentViews(options: { recordAgainAfterMs: number; maxEntries?: number }) {
  const maxEntries = options.maxEntries ?? 250_000;
  let byOffer = new WeakMap<object, Map<string, number>>();
  // Counts what was added, not what the garbage collector took with its offer: an overcount, so
  // memory is forgotten early, never late.
  let entries = 0;

  return {
    /** The indexes in `offers` of those this pilot has no view of recorded here since `at` less the hour. */
    unrecorded(pilotId: string, offers: readonly object[], at: Date): number[] {
      const since = at.getTime() - options.recordAgainAfterMs;
      const missing: number[] = [];
      for (let i = 0; i < offers.length; i += 1) {
        const recorded = byOffer.get(offers[i]!)?.get(pilotId);
        if (recorded === undefined || recorded < since) missing.push(i);
      }
      return missing;
    },

    /** Remembers that these views are recorded in Postgres as of `at`. */
    remember(pilotId: string, offers: readonly object[], at: Date): void {
      if (entries + offers.length > maxEntries) {
        byOffer = new WeakMap();
        entries = 0;
      }
      const time = at.getTime();
      for (const offer of offers) {
        let pilots = byOffer.get(offer);
        if (!pilots) byOffer.set(offer, (pilots = new Map()));
        if (!pilots.has(pilotId)) entries += 1;
        pilots.set(pilotId, time);
      }
    },
  };
}
export type RecentViews = ReturnType<typeof createRecentViews>;

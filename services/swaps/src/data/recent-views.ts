/**
 * The Find swaps answers whose views this replica has recorded lately, so that a pilot asking the
 * same again (scrolling back, the app refetching on focus, a pull to refresh) costs Postgres no
 * statement: within the hour the record would change nothing (offer-views.ts), yet each offer in it
 * was an index lookup in Postgres.
 *
 * An answer is remembered by its offers' versions in the offer index, not by their trip ids: the
 * index gives a trip it reads again (changed, withdrawn and offered again) a new version, on every
 * replica since each follows the table, so an offer that went and came back is recorded afresh,
 * and a pilot who saw it again is told if it goes again. A remembered answer costs a number per
 * offer; past `maxOffers` in all, the answers older than the hour are forgotten, then if need be
 * all of them, and the statement's own check does the work. `forgetStale` gives back, between
 * busy spells, what the hour has made useless (a quiet replica would otherwise hold it until the bound).
 */
export function createRecentViews(options: { recordAgainAfterMs: number; maxOffers?: number }) {
  const maxOffers = options.maxOffers ?? 4_000_000;
  /** By answer (pilot, trip, dates and page): its offers' versions, and when the oldest of their views was recorded. */
  const answers = new Map<string, { at: number; versions: readonly number[] }>();
  let offersHeld = 0;

  const forgetOlderThan = (time: number) => {
    for (const [answer, { at, versions }] of answers) {
      if (at >= time) continue;
      answers.delete(answer);
      offersHeld -= versions.length;
    }
  };
  const fresh = (answer: string, at: Date) => {
    const last = answers.get(answer);
    return last && last.at >= at.getTime() - options.recordAgainAfterMs ? last : undefined;
  };

  return {
    /** Forgets the answers whose oldest view is over the hour old at `at`: they answer nothing any more. */
    forgetStale(at: Date): void {
      forgetOlderThan(at.getTime() - options.recordAgainAfterMs);
    },

    /** How many offers' versions are held, all answers together. */
    offersHeld: () => offersHeld,

    /** The positions in `versions` of the offers whose view is not known to be recorded within the hour. */
    unrecorded(answer: string, versions: readonly number[], at: Date): number[] {
      const last = fresh(answer, at);
      const missing: number[] = [];
      if (last && last.versions.length === versions.length && versions.every((version, i) => version === last.versions[i])) return missing;
      const recorded = new Set(last?.versions);
      for (let i = 0; i < versions.length; i += 1) if (!recorded.has(versions[i]!)) missing.push(i);
      return missing;
    },

    /** Remembers that every view in this answer is recorded, the missing ones as of `at`. */
    remember(answer: string, versions: readonly number[], at: Date): void {
      // The answer is as old as its oldest view: one partly recorded earlier keeps that time.
      const since = fresh(answer, at)?.at ?? at.getTime();
      offersHeld -= answers.get(answer)?.versions.length ?? 0;
      answers.delete(answer);
      if (offersHeld + versions.length > maxOffers) forgetOlderThan(at.getTime() - options.recordAgainAfterMs);
      if (offersHeld + versions.length > maxOffers) forgetOlderThan(Infinity);
      answers.set(answer, { at: since, versions });
      offersHeld += versions.length;
    },
  };
}
export type RecentViews = ReturnType<typeof createRecentViews>;

import type { Constraint } from '../../rules/swap-rule';
import { inDateOrder, type DateOrder } from './answer';
import type { Buckets } from './buckets';

/** Searches kept: about 10 KB each at 10,000 pilots (some 400 rows, two numbers each, and their groups). */
export const KEPT_ORDERS = 2048;

/**
 * Each search's rows in date order, kept until the offers change (issue 58): the next page of a
 * search, or the same search again, slices the kept order rather than collecting and merging the
 * buckets' rows anew. Keyed by everything the order and its groups read: the swap rule's
 * constraint, the searched trip's dates and the Urgent dates. Least recently used goes first.
 */
export function createKeptOrders(buckets: Pick<Buckets, 'find' | 'generation'>) {
  const kept = new Map<string, DateOrder>();
  let generation = buckets.generation();
  return {
    of(constraint: Constraint, dates: { start: string; end: string; urgentFrom: string; urgentTo: string }): DateOrder {
      if (generation !== buckets.generation()) {
        kept.clear();
        generation = buckets.generation();
      }
      const key = `${dates.start} ${dates.end} ${dates.urgentFrom} ${dates.urgentTo} ${JSON.stringify(constraint)}`;
      let order = kept.get(key);
      if (order) {
        kept.delete(key);
      } else {
        order = inDateOrder(buckets.find(constraint));
        if (kept.size >= KEPT_ORDERS) kept.delete(kept.keys().next().value!);
      }
      kept.set(key, order);
      return order;
    },
  };
}

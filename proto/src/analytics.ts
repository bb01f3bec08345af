import { z } from 'zod';
import { Base, Fleet } from './common';

/** Pilots of one rank in one fleet, their trips and how many of those are offered for swap. */
export const RankAnalytics = z.object({ pilotCount: z.number().int(), totalTrips: z.number().int(), swapOffers: z.number().int() });
export type RankAnalytics = z.infer<typeof RankAnalytics>;

/** One row of 'Trip Analytics by Fleet & Rank': Fleet Trips and Fleet Swaps are CP plus FO. */
export const FleetAnalytics = z.object({
  CP: RankAnalytics,
  FO: RankAnalytics,
  fleetTrips: z.number().int(),
  fleetSwaps: z.number().int(),
});
export type FleetAnalytics = z.infer<typeof FleetAnalytics>;

/**
 * GET /api/admin/analytics. `fleets` holds the fleets with data, in the spec's order (A330, A350,
 * SFF, B787); `total` is the TOTAL row, every column summed. Pilots and trips count live pilots
 * only, so the totals always equal the TOTAL row.
 */
export const AdminAnalytics = z.object({
  pilots: z.object({ total: z.number().int() }),
  trips: z.object({ total: z.number().int(), swapOffers: z.number().int() }),
  fleets: z.array(FleetAnalytics.extend({ fleet: Fleet })),
  total: FleetAnalytics,
});
export type AdminAnalytics = z.infer<typeof AdminAnalytics>;

/** GET /api/admin/analytics/comprehensive: the same, plus the split by base and real against test data. */
export const ComprehensiveAnalytics = AdminAnalytics.extend({
  bases: z.array(z.object({ base: Base, pilotCount: z.number().int(), totalTrips: z.number().int(), swapOffers: z.number().int() })),
  testData: z.object({ pilotCount: z.number().int(), totalTrips: z.number().int(), swapOffers: z.number().int() }),
});
export type ComprehensiveAnalytics = z.infer<typeof ComprehensiveAnalytics>;

/** GET /api/admin/analytics/swap-breakdown: what kind of trips are offered for swap. */
export const SwapBreakdown = z.object({
  total: z.number().int(),
  training: z.number().int(),
  standby: z.number().int(),
  byFleet: z.record(Fleet, z.number().int()),
  byRank: z.object({ CP: z.number().int(), FO: z.number().int() }),
});
export type SwapBreakdown = z.infer<typeof SwapBreakdown>;

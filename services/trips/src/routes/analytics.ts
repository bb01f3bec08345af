import { adminWith, routes, type SessionGuard } from '@crewswap/kit';
import { API } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import type { AnalyticsService } from '../domain/analytics';

/** The console's analytics: view_analytics (a master admin has it). */
export function analyticsRoutes(app: FastifyInstance, deps: { guard: SessionGuard; analytics: AnalyticsService }): void {
  const { guard, analytics } = deps;
  const route = routes(app);
  const viewAnalytics = adminWith(guard, 'view_analytics');

  route(API.adminAnalytics, { auth: viewAnalytics }, async () => analytics.overview());
  route(API.comprehensiveAnalytics, { auth: viewAnalytics }, async () => analytics.comprehensive());
  route(API.swapBreakdown, { auth: viewAnalytics }, async () => analytics.swapBreakdown());
}

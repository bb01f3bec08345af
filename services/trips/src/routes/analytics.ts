import { adminWith, routes, type SessionGuard } from '@crewswap/kit';
import type { FastifyInstance } from 'fastify';
import type { AnalyticsService } from '../domain/analytics';

/** The console's analytics: view_analytics (a master admin has it). */
export function analyticsRoutes(app: FastifyInstance, deps: { guard: SessionGuard; analytics: AnalyticsService }): void {
  const { guard, analytics } = deps;
  const route = routes(app);
  const viewAnalytics = adminWith(guard, 'view_analytics');

  route.get('/api/admin/analytics', { auth: viewAnalytics }, async () => analytics.overview());
  route.get('/api/admin/analytics/comprehensive', { auth: viewAnalytics }, async () => analytics.comprehensive());
  route.get('/api/admin/analytics/swap-breakdown', { auth: viewAnalytics }, async () => analytics.swapBreakdown());
}

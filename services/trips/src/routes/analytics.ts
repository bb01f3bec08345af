import type { SessionGuard } from '@crewswap/kit';
import type { AdminAnalytics, ComprehensiveAnalytics, SwapBreakdown } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import type { AnalyticsService } from '../domain/analytics';

/** The console's analytics: view_analytics (a master admin has it). */
export function analyticsRoutes(app: FastifyInstance, deps: { guard: SessionGuard; analytics: AnalyticsService }): void {
  const { guard, analytics } = deps;

  app.get('/api/admin/analytics', async (request): Promise<AdminAnalytics> => {
    guard.admin(request, 'view_analytics');
    return analytics.overview();
  });

  app.get('/api/admin/analytics/comprehensive', async (request): Promise<ComprehensiveAnalytics> => {
    guard.admin(request, 'view_analytics');
    return analytics.comprehensive();
  });

  app.get('/api/admin/analytics/swap-breakdown', async (request): Promise<SwapBreakdown> => {
    guard.admin(request, 'view_analytics');
    return analytics.swapBreakdown();
  });
}

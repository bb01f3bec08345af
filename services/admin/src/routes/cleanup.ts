import { parse, type Runtime } from '@crewswap/kit';
import { CleanupConfigBody, CleanupPreviewQuery, CleanupRunBody, type CleanupConfig, type CleanupRun, type CleanupRunResponse } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import type { CleanupService } from '../domain/cleanup';

/** Data Cleanup: manage_system, as the console's menu says (a master admin has it). */
export function cleanupRoutes(app: FastifyInstance, deps: { runtime: Runtime; cleanup: CleanupService }): void {
  const { runtime, cleanup } = deps;
  const guard = runtime.guard;

  app.get('/api/admin/cleanup/config', async (request): Promise<CleanupConfig> => {
    guard.admin(request, 'manage_system');
    return cleanup.config();
  });

  app.post('/api/admin/cleanup/config', async (request): Promise<CleanupConfig> => {
    guard.admin(request, 'manage_system');
    return cleanup.configure(parse(CleanupConfigBody, request.body ?? {}));
  });

  app.get('/api/admin/cleanup/history', async (request): Promise<CleanupRun[]> => {
    guard.admin(request, 'manage_system');
    return cleanup.history();
  });

  app.post('/api/admin/cleanup/run', async (request): Promise<CleanupRunResponse> => {
    guard.admin(request, 'manage_system');
    return cleanup.run(parse(CleanupRunBody, request.body ?? {}).retentionDays);
  });

  app.get('/api/admin/cleanup/preview', async (request): Promise<{ tripsToDelete: number }> => {
    guard.admin(request, 'manage_system');
    return cleanup.preview(parse(CleanupPreviewQuery, request.query).days);
  });
}

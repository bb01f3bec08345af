import { adminWith, requestRpc, routes, type Clock, type Runtime } from '@crewswap/kit';
import { API, PurgePreviewReply, RPC, type CleanupConfig, type CleanupRun, type CleanupRunResponse } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import type { CleanupRepository } from '../data/cleanup-repository';
import { cleanupConfig, type createConfigureCleanup, type RunCleanup } from '../domain/cleanup';

/** Data Cleanup: manage_system, as the console's menu says (a master admin has it). */
export function cleanupRoutes(
  app: FastifyInstance,
  deps: { runtime: Runtime; clock: Clock; cleanups: CleanupRepository; configureCleanup: ReturnType<typeof createConfigureCleanup>; runCleanup: RunCleanup },
): void {
  const { runtime, clock, cleanups } = deps;
  const route = routes(app);
  const auth = adminWith(runtime.guard, 'manage_system');

  route(API.cleanupConfig, { auth }, async (): Promise<CleanupConfig> => cleanupConfig(cleanups, clock));

  route(API.setCleanupConfig, { auth }, async ({ body }): Promise<CleanupConfig> => deps.configureCleanup.execute(body));

  route(API.cleanupHistory, { auth }, async (): Promise<CleanupRun[]> => cleanups.history());

  route(API.runCleanup, { auth }, async ({ body }): Promise<CleanupRunResponse> =>
    deps.runCleanup.execute({ retentionDays: body.retentionDays }),
  );

  // Trips owns the trips: it counts what a run would delete.
  route(API.cleanupPreview, { auth }, async ({ query }): Promise<{ tripsToDelete: number }> =>
    requestRpc(runtime.bus, RPC.purgePreview, { retentionDays: query.days }, PurgePreviewReply),
  );
}

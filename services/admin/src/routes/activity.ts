import { forbidden, routes, type Runtime } from '@crewswap/kit';
import { API, type AdminActivityEntry } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import type { ActivityRepository } from '../data/activity-repository';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Recorded by the session use case itself (with the outcome), not by the hook. */
const OWN_ENTRIES = new Set(['/api/admin/login', '/api/admin/logout']);

/**
 * The activity log: every change an admin makes through this service (method, route and its
 * parameters; never a body, which may hold a password or a secret setting), and the log's route,
 * for master admins.
 */
export function activityRoutes(app: FastifyInstance, deps: { runtime: Runtime; activity: ActivityRepository; now: () => Date }): void {
  const { runtime, activity } = deps;

  // Taken before the handler runs: a change to one's own permissions ends the session with it.
  const actors = new WeakMap<object, string>();
  app.addHook('preHandler', async (request) => {
    if (!MUTATING.has(request.method) || OWN_ENTRIES.has(request.routeOptions.url ?? '')) return;
    try {
      actors.set(request, (await runtime.guard.admin(request)).adminId);
    } catch {
      // Not an admin: the route refuses it, and nothing is recorded.
    }
  });

  app.addHook('onResponse', async (request, reply) => {
    const adminId = actors.get(request);
    if (!adminId || reply.statusCode >= 400) return;
    const params = Object.entries((request.params ?? {}) as Record<string, string>);
    await activity
      .record({
        adminId,
        action: `${request.method} ${request.routeOptions.url}`,
        detail: params.length ? params.map(([name, value]) => `${name}=${value}`).join(' ') : null,
        ipAddress: request.ip ?? null,
        at: deps.now(),
      })
      .catch((error: unknown) => request.log.warn({ err: error }, 'could not record admin activity'));
  });

  routes(app)(API.adminActivityLog, { auth: runtime.guard.admin }, async ({ session, query }): Promise<AdminActivityEntry[]> => {
    if (!session.isMasterAdmin) throw forbidden('Only a master admin can read the activity log');
    return activity.latest(query.limit);
  });
}

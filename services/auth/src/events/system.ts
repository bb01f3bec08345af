import { startConsumer, type RunningConsumer } from '@crewswap/kit';
import { SUBJECTS } from '@crewswap/proto';
import type { AuthContext } from '../domain/context';
import { endAllSessions } from '../domain/sessions';

/**
 * Emergency shutdown from admin: every pilot session ends at once and logins are refused until
 * admin resumes operations. The state lives in the database so every replica sees it.
 */
export function startSystemStateConsumer(ctx: AuthContext): Promise<RunningConsumer> {
  return startConsumer({
    db: ctx.db,
    bus: ctx.bus,
    log: ctx.log,
    stream: 'ADMIN',
    durable: 'auth_system_state',
    filter: 'admin.system.>',
    subjects: [SUBJECTS.systemShutdown, SUBJECTS.systemResumed],
    handle: async (event, trx) => {
      const shutdown = event.type === SUBJECTS.systemShutdown;
      await ctx.repos.system.set(shutdown, event.data.reason, ctx.clock.now(), trx);
      if (shutdown) {
        const ended = await endAllSessions(ctx, trx, 'admin_shutdown');
        ctx.log.warn({ ended }, 'emergency shutdown: pilot sessions ended');
      }
    },
  });
}

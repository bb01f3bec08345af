import { serveRpc } from '@crewswap/kit';
import { RPC, SystemStateRequest, type SystemStateReply } from '@crewswap/proto';
import type { z } from 'zod';
import type { AuthContext } from '../domain/context';
import { endAllSessions } from '../domain/sessions';

/**
 * Emergency shutdown and resume, asked by admin over request/reply so the console learns how many
 * pilot sessions ended: every pilot session ends at once and logins are refused until admin
 * resumes operations. The state lives in the database so every replica sees it. (A request, not
 * the admin.system events: a consumer lagging behind could apply a shutdown after its resume.)
 */
export function serveSystemState(ctx: AuthContext): ReturnType<typeof serveRpc> {
  return serveRpc({
    bus: ctx.bus,
    log: ctx.log,
    subject: RPC.setSystemState,
    request: SystemStateRequest,
    handle: async (input): Promise<z.infer<typeof SystemStateReply>> =>
      ctx.db.transaction(async (trx) => {
        await ctx.repos.system.set(input.shutdown, input.reason, ctx.clock.now(), trx);
        if (!input.shutdown) return { sessionsTerminated: 0 };
        const ended = await endAllSessions(ctx, trx, 'admin_shutdown');
        ctx.log.warn({ ended }, 'emergency shutdown: pilot sessions ended');
        return { sessionsTerminated: ended };
      }),
  });
}

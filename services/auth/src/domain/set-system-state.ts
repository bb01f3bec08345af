import type { SystemStateReply, SystemStateRequest } from '@crewswap/proto';
import type { z } from 'zod';
import type { AuthDeps } from './deps';
import type { PilotSessions } from './pilot-sessions';

/**
 * Emergency shutdown and resume: on shutdown every pilot session ends at once and logins are
 * refused until operations resume. The state lives in the database so every replica sees it.
 */
export function createSetSystemState(deps: Pick<AuthDeps, 'db' | 'repos' | 'clock' | 'log'> & { sessions: PilotSessions }) {
  return {
    async execute(input: z.output<typeof SystemStateRequest>): Promise<z.infer<typeof SystemStateReply>> {
      return deps.db.transaction(async (trx) => {
        await deps.repos.system.set(input.shutdown, input.reason, deps.clock.now(), trx);
        if (!input.shutdown) return { sessionsTerminated: 0 };
        const ended = await deps.sessions.endAll(trx, 'admin_shutdown');
        deps.log.warn({ ended }, 'emergency shutdown: pilot sessions ended');
        return { sessionsTerminated: ended };
      });
    },
  };
}

import type { AuthDeps } from './deps';
import { sessionTimeoutMinutes, type PilotSessions } from './pilot-sessions';

/** Ends sessions idle longer than `session_timeout_minutes`. Safe on every replica at once. */
export function createSweepIdleSessions(deps: Pick<AuthDeps, 'db' | 'repos' | 'clock' | 'settings'> & { sessions: PilotSessions }) {
  return {
    async execute(): Promise<number> {
      const minutes = await sessionTimeoutMinutes(deps.settings);
      const now = deps.clock.now();
      return deps.db.transaction(async (trx) => {
        const ended = await deps.repos.sessions.endIdle(new Date(now.getTime() - minutes * 60_000), now, trx);
        await deps.sessions.revoke(trx, ended, 'timeout');
        return ended.length;
      });
    },
  };
}

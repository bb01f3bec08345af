import type { EndReason } from '../data/sessions';
import type { AuthDeps } from './deps';
import type { PilotSessions } from './pilot-sessions';

/** Ends one session (logout), announcing it like every other ending. */
export function createEndSession(deps: Pick<AuthDeps, 'db' | 'repos' | 'clock'> & { sessions: PilotSessions }) {
  return {
    async execute(input: { sessionId: string; reason: EndReason }): Promise<void> {
      await deps.db.transaction(async (trx) => {
        const ended = await deps.repos.sessions.end(input.sessionId, input.reason, deps.clock.now(), trx);
        await deps.sessions.revoke(trx, ended, input.reason);
      });
    },
  };
}
